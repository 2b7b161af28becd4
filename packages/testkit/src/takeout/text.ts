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

/** A place title in the given style. */
export function titleText(style: TitleStyle, random: Random): string {
  switch (style) {
    case 'latin':
      return `${random.pick(LATIN_PREFIXES)} ${random.pick(LATIN_NAMES)}`;
    case 'cjk':
      return random.pick(CJK_TITLES);
    case 'arabic':
      return random.pick(ARABIC_TITLES);
    case 'script':
      return random.pick(OTHER_SCRIPT_TITLES);
    case 'emoji':
      return random.pick(EMOJI_TITLES);
    case 'markup':
      return random.pick(MARKUP_TITLES);
    case 'quoted':
      return random.pick(QUOTED_TITLES);
    case 'formula':
      return random.pick(FORMULA_TITLES);
    case 'address':
      return random.pick(ADDRESS_TITLES);
  }
}

/** A note in the given style. */
export function noteText(style: NoteStyle, random: Random): string {
  switch (style) {
    case 'empty':
      return '';
    case 'plain':
      return random.pick(PLAIN_NOTES);
    case 'comma':
      return random.pick(COMMA_NOTES);
    case 'multiline':
      return random.pick(MULTILINE_NOTES);
    case 'quoted':
      return random.pick(QUOTED_NOTES);
    case 'forbidden':
      return random.pick(FORBIDDEN_NOTES);
  }
}

/** A comment in the given style. */
export function commentText(style: CommentStyle, random: Random): string {
  return style === 'empty' ? '' : random.pick(COMMENTS);
}
