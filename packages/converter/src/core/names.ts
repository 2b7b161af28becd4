/** Default file names from the seed, used when a list has no usable name. */
export const DEFAULT_KML_FILE_NAME = 'my-saved-places.kml';
export const DEFAULT_FAILED_CSV_FILE_NAME = 'failed-places.csv';
/** The stem used when a list's name leaves nothing usable: the seed's default file name without `.kml`. */
export const DEFAULT_FILE_STEM = DEFAULT_KML_FILE_NAME.replace(/\.kml$/, '');
export const KML_MIME_TYPE = 'application/vnd.google-earth.kml+xml';
export const CSV_MIME_TYPE = 'text/csv;charset=utf-8';

/** The file name of a path inside the archive, whatever separator it uses. */
export function fileNameFromPath(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/**
 * Characters that set the direction text is shown in: the embeddings and overrides (U+202A to
 * U+202E), the isolates (U+2066 to U+2069) and the marks (U+200E, U+200F, U+061C).
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A list's name: its file name without the `.csv` extension (any case), as the seed shows it; the
 * starred places' `Saved Places.json` is the list "Saved Places". Without the characters that set
 * the direction text is shown in ({@link BIDI_CONTROLS}): a list named `Trip\u202Evsc.exe` was shown
 * on the page as "Tripexe.csv" and saved as `Tripvsc.exe.kml` (file names never keep them). Each
 * name is shown in its own direction without them (the page isolates it).
 */
export function listNameFromPath(path: string): string {
  return fileNameFromPath(path)
    .replace(/\.(?:csv|json)$/i, '')
    .replace(BIDI_CONTROLS, '');
}

/**
 * The longest file name, in bytes of UTF-8, that every common file system takes: ext4, Btrfs, XFS,
 * ZFS and APFS count 255 bytes; NTFS, exFAT and HFS+ count 255 UTF-16 units, never more than the
 * UTF-8 bytes of the same name. Every name the converter gives (extension and suffixes included)
 * fits; a 100-character CJK list name (300 bytes) is cut, not refused by the disk.
 */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * The longest stem (a list's name made safe, folder or retry label included), in UTF-8 bytes. The
 * 55 bytes left over hold everything put after it: ` (part 12 of 40)`, ` - failed-places`, a
 * ` (2)` that tells files apart, and the longest extension (`.geojson`), so every file of one
 * list shares one stem and the pairs stay recognisable.
 */
export const MAX_STEM_BYTES = 200;

/** The longest folder label put after a list's name, in UTF-8 bytes. */
const MAX_LABEL_BYTES = 60;

/** Bytes of `text` in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD it becomes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

let graphemes: Intl.Segmenter | null | undefined;

/**
 * The grapheme segmenter, made on first use: only a name too long for the disk needs it, and making
 * one costs every run's start-up a few milliseconds. `null` where `Intl.Segmenter` is missing.
 */
function graphemeSegmenter(): Intl.Segmenter | null {
  graphemes ??=
    typeof Intl !== 'undefined' && 'Segmenter' in Intl
      ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
      : null;
  return graphemes;
}

/**
 * The longest start of `text` within `maxBytes` of UTF-8, cut between graphemes (a flag, a family
 * emoji or a letter with its accents stays whole or goes whole); between code points only when one
 * grapheme alone is longer than the budget, or where `Intl.Segmenter` is missing. Never splits a
 * surrogate pair.
 */
export function cutToBytes(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair is 4 for two).
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return text;
  let kept = '';
  let used = 0;
  const segmenter = graphemeSegmenter();
  const pieces = segmenter
    ? Array.from(segmenter.segment(text), (piece) => piece.segment)
    : Array.from(text);
  for (const piece of pieces) {
    const bytes = utf8Length(piece);
    if (used + bytes <= maxBytes) {
      kept += piece;
      used += bytes;
      continue;
    }
    // Nothing fits yet: a grapheme longer than the whole budget is cut between its code points.
    if (kept === '') {
      for (const char of piece) {
        used += utf8Length(char);
        if (used > maxBytes) break;
        kept += char;
      }
    }
    break;
  }
  return kept;
}

/**
 * Names Windows keeps for devices, with or without an extension, in any case (`CON`, `nul.txt`,
 * `Com1.kml`; the superscript digits too): a file cannot be given that name there.
 */
const WINDOWS_DEVICE =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?=\s*(?:\.|$))/i;

/** A surrogate without its other half: not text, and no file system takes it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Invisible format characters (Unicode's Cf), dropped from file names. Bidirectional marks and
 * overrides reorder how a name is shown: `\u202Eslx.exe.kml` reads as `lmk.exe.xls`; a file's real
 * extension is always ours, and the name's own letters show in their own direction without them.
 * The rest (zero-width joiners and non-joiners, in nearly every Persian name and in family and
 * rainbow emoji; soft hyphens; emoji tag characters of the Scotland flag) Chromium saves as `_`
 * each, so a name the page showed was not the name saved; without them every browser, the ZIP
 * and the CLI save the same name.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/** Trailing dots and spaces: Windows drops them (two names become one), Explorer cannot open the file. */
const EDGE_DOTS_AND_SPACES = /^[\s.]+|[\s.]+$/g;

/**
 * A name that is safe as one file name on every system: no folders, no `..`, no characters Windows
 * or macOS refuse, no control or invisible format characters (bidirectional controls, zero-width
 * joiners: see {@link FORMAT_CHARACTERS}) or broken surrogates, no leading or
 * trailing dots and spaces,
 * not a Windows device name (`CON` → `CON_`), in Unicode NFC, and at most {@link MAX_STEM_BYTES}
 * bytes of UTF-8, cut between graphemes. Archive entry names are only ever names.
 */
export function safeFileStem(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(LONE_SURROGATE, '_')
    .replace(FORMAT_CHARACTERS, '')
    .normalize('NFC')
    .replace(EDGE_DOTS_AND_SPACES, '')
    .replace(WINDOWS_DEVICE, '$1_');
  return cutToBytes(cleaned, MAX_STEM_BYTES).replace(EDGE_DOTS_AND_SPACES, '');
}

/**
 * `stem` followed by `tail` (` (part 2 of 3).kml`, ` - failed-places.csv`), the stem shortened when
 * needed so the whole name stays within {@link MAX_FILE_NAME_BYTES}. `stem` is already safe.
 */
export function fileNameWithin(stem: string, tail: string): string {
  const room = MAX_FILE_NAME_BYTES - utf8Length(tail);
  return `${cutToBytes(stem, room).replace(EDGE_DOTS_AND_SPACES, '')}${tail}`;
}

/** ` (part 2 of 3)` for a list split in parts; nothing for a list in one file. */
export function partSuffix(part: number, parts: number): string {
  return parts > 1 ? ` (part ${part} of ${parts})` : '';
}

/** What follows a list's name in its failed-places CSV's name (`Want to go - failed-places.csv`). */
export const FAILED_CSV_SUFFIX = ' - failed-places';

/**
 * The name of a list of the places an earlier run could not place, taken up again ("Retry failed
 * places" on the page, a failed-places CSV given to the CLI): `Want to go (failed places)`. It is
 * what the run's summary and its files' list name say; the files themselves are `(retry)` ones.
 */
export function failedPlacesListName(listName: string): string {
  return `${listName} (failed places)`;
}

/** Failed-places CSV file name for a list. */
export function failedCsvFileName(listName: string): string {
  const stem = safeFileStem(listName);
  return stem ? fileNameWithin(stem, `${FAILED_CSV_SUFFIX}.csv`) : DEFAULT_FAILED_CSV_FILE_NAME;
}

/** How two output names compare on file systems that ignore case (Windows, macOS). */
function stemKey(stem: string): string {
  return stem.normalize('NFC').toLowerCase();
}

/**
 * `name (label)` (`Food (Takeout 2)`, `Food (retry)`), made safe ({@link safeFileStem}) with the
 * name shortened so the label always survives: the whole stays within {@link MAX_STEM_BYTES}, like
 * any stem, so the files named from it fit too. `label` is already safe.
 */
export function labelledStem(name: string, label: string): string {
  const tail = ` (${label})`;
  const stem = safeFileStem(name) || DEFAULT_FILE_STEM;
  return `${cutToBytes(stem, MAX_STEM_BYTES - utf8Length(tail)).trimEnd()}${tail}`;
}

/**
 * The names the outputs of each list are written under, in the order of `paths` (archive order).
 * Lists' names repeat across folders (product.md: a list's identity is its path), so among lists
 * whose names would give the same file name (ignoring case), the first keeps its plain name and each
 * other one is told apart by the folders where its path differs from the first one's:
 * `Takeout/Saved/Default list.csv` → `Default list`, `Takeout 2/Saved/Default list.csv` →
 * `Default list (Takeout 2)`; several folders are joined with " - " (all of its folders when it
 * only has more or fewer). Should that still collide, or the folders be the same (names differing in
 * case only), a number follows (`Default list (2)`). Every file of a list (KML parts, failed-places CSV)
 * is named from the same name, so they pair. The result depends only on the paths given, so pass the
 * whole archive's paths to keep names stable whichever lists are converted.
 */
export function listOutputNames(paths: readonly string[]): string[] {
  const names = paths.map(listNameFromPath);
  const stems = names.map((name) => safeFileStem(name) || DEFAULT_FILE_STEM);
  const groups = new Map<string, number[]>();
  stems.forEach((stem, i) => {
    const key = stemKey(stem);
    const members = groups.get(key);
    if (members) members.push(i);
    else groups.set(key, [i]);
  });
  const out = [...names];
  // The plain names are taken first, so a list really named "Food (Old)" keeps that name.
  const taken = new Set(groups.keys());
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const first = paths[members[0]!]!;
    for (const index of members.slice(1)) {
      const stem = stems[index]!;
      const label = cutToBytes(
        safeFileStem(folderLabel(first, paths[index]!)),
        MAX_LABEL_BYTES,
      ).replace(EDGE_DOTS_AND_SPACES, '');
      let name = label ? labelledStem(stem, label) : '';
      for (let n = 2; !name || taken.has(stemKey(name)); n += 1) {
        name = labelledStem(stem, String(n));
      }
      taken.add(stemKey(name));
      out[index] = name;
    }
  }
  return out;
}

/** The folders of an archive path, outermost first. */
export function folderNamesOf(path: string): string[] {
  return path.split(/[\\/]/).slice(0, -1).filter(Boolean);
}

/**
 * What tells `path` apart from `first`: its folders where the two differ (the folders they start and
 * end with in common left out), else all its folders.
 */
function folderLabel(first: string, path: string): string {
  const a = folderNamesOf(first);
  const b = folderNamesOf(path);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (
    end < a.length - start &&
    end < b.length - start &&
    a[a.length - 1 - end] === b[b.length - 1 - end]
  ) {
    end += 1;
  }
  const differing = b.slice(start, b.length - end);
  // Same folders (names differing in case only): nothing to tell them apart by, a number will.
  if (a.length === b.length && differing.length === 0) return '';
  return (differing.length > 0 ? differing : b).join(' - ');
}

/**
 * Takeout's name for one part of an export in several: `takeout-20261127T103000Z-003.zip` (or
 * `.tgz`), as a browser names it downloaded again (`takeout-…-003 (1).zip`), and its folder once
 * unzipped (`takeout-…-003`, as Safari leaves it).
 */
const TAKEOUT_PART = /^takeout-.*-(\d{3})(?: \(\d+\))?(?:\.(?:zip|tgz|tar\.gz))?$/i;

/** The part number a file's name gives it (`takeout-…-003.zip`: 3), or undefined for another name. */
export function takeoutPartOf(fileName: string): number | undefined {
  const part = TAKEOUT_PART.exec(fileName);
  return part ? Number(part[1]) : undefined;
}

/**
 * What to do when part `part` of an export in several holds no list: the lists are in the part
 * holding "Saved" (`give` it to the CLI, `choose` it on the page). Takeout names the only file of
 * an export in one part `-001` too, so part 1 may be all there is: then Saved was not exported.
 */
export function anotherPartSentence(part: number, verb: 'give' | 'choose'): string {
  return part === 1
    ? `If this export came in several parts, ${verb} the part that holds the "Saved" folder; if it is the only one, export again from Google Takeout with Saved selected.`
    : `This is part ${part} of an export in several parts: ${verb} the part that holds the "Saved" folder.`;
}
