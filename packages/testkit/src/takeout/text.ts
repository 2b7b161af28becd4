import {
  ADDRESS_TITLES,
  ARABIC_TITLES,
  CJK_TITLES,
  COMMA_NOTES,
  COMMENTS,
  EMOJI_TITLES,
  FORBIDDEN_NOTES,
  FORMULA_TITLES,
  LATIN_NAMES,
  LATIN_PREFIXES,
  MARKUP_TITLES,
  MULTILINE_NOTES,
  OTHER_SCRIPT_TITLES,
  PLAIN_NOTES,
  QUOTED_NOTES,
  QUOTED_TITLES,
} from './pools.js';
import { WeightTable, type Random } from './random.js';

/** How a title is written; every style but `latin` is a quirk the converter must survive. */
export type TitleStyle =
  'latin' | 'cjk' | 'arabic' | 'script' | 'emoji' | 'markup' | 'quoted' | 'formula' | 'address';

/** How a note is written, from empty (most) to characters XML forbids. */
export type NoteStyle = 'empty' | 'plain' | 'comma' | 'multiline' | 'quoted' | 'forbidden';

/** Whether the Comment cell has text. */
export type CommentStyle = 'empty' | 'text';

/** Title styles guaranteed once per list when quirks are on. */
export const QUIRK_TITLE_STYLES: readonly TitleStyle[] = [
  'cjk',
  'arabic',
  'emoji',
  'markup',
  'quoted',
  'formula',
  'address',
];

/** Note styles guaranteed once per list when quirks are on. */
export const QUIRK_NOTE_STYLES: readonly NoteStyle[] = ['multiline', 'quoted', 'forbidden'];

export const TITLE_STYLES = new WeightTable<TitleStyle>([
  ['latin', 800],
  ['cjk', 60],
  ['arabic', 25],
  ['script', 25],
  ['emoji', 50],
  ['markup', 20],
  ['quoted', 5],
  ['formula', 5],
  ['address', 10],
]);

export const NOTE_STYLES = new WeightTable<NoteStyle>([
  ['empty', 700],
  ['plain', 180],
  ['comma', 50],
  ['multiline', 40],
  ['quoted', 20],
  ['forbidden', 10],
]);

export const COMMENT_STYLES = new WeightTable<CommentStyle>([
  ['empty', 880],
  ['text', 120],
]);

/** The pool each title style but `latin` (prefix and name) draws from. */
const TITLE_POOLS: Readonly<Record<Exclude<TitleStyle, 'latin'>, readonly string[]>> = {
  cjk: CJK_TITLES,
  arabic: ARABIC_TITLES,
  script: OTHER_SCRIPT_TITLES,
  emoji: EMOJI_TITLES,
  markup: MARKUP_TITLES,
  quoted: QUOTED_TITLES,
  formula: FORMULA_TITLES,
  address: ADDRESS_TITLES,
};

/** The pool each note style but `empty` draws from. */
const NOTE_POOLS: Readonly<Record<Exclude<NoteStyle, 'empty'>, readonly string[]>> = {
  plain: PLAIN_NOTES,
  comma: COMMA_NOTES,
  multiline: MULTILINE_NOTES,
  quoted: QUOTED_NOTES,
  forbidden: FORBIDDEN_NOTES,
};

/** A place title in the given style. */
export function titleText(style: TitleStyle, random: Random): string {
  return style === 'latin'
    ? `${random.pick(LATIN_PREFIXES)} ${random.pick(LATIN_NAMES)}`
    : random.pick(TITLE_POOLS[style]);
}

/** A note in the given style. */
export function noteText(style: NoteStyle, random: Random): string {
  return style === 'empty' ? '' : random.pick(NOTE_POOLS[style]);
}

/** A comment in the given style. */
export function commentText(style: CommentStyle, random: Random): string {
  return style === 'empty' ? '' : random.pick(COMMENTS);
}
