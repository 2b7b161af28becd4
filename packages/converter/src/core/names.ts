/** Default file names from the seed, used when a list has no usable name. */
export const DEFAULT_KML_FILE_NAME = 'my-saved-places.kml';
export const DEFAULT_FAILED_CSV_FILE_NAME = 'failed-places.csv';
export const KML_MIME_TYPE = 'application/vnd.google-earth.kml+xml';
export const CSV_MIME_TYPE = 'text/csv;charset=utf-8';

/** The file name of a path inside the archive, whatever separator it uses. */
export function fileNameFromPath(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/**
 * A list's name: its file name without the `.csv` extension (any case), as the seed shows it; the
 * starred places' `Saved Places.json` is the list "Saved Places".
 */
export function listNameFromPath(path: string): string {
  return fileNameFromPath(path).replace(/\.(?:csv|json)$/i, '');
}

/**
 * A name that is safe as one file name on every system: no folders, no `..`, no characters Windows or
 * macOS refuse, no control characters, at most 150 characters. Archive entry names are only ever names.
 */
export function safeFileStem(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 150);
  return cleaned;
}

/** KML file name for a list, with the part suffix when the list is split for My Maps' per-layer limit. */
export function kmlFileName(listName: string, part = 1, parts = 1): string {
  const stem = safeFileStem(listName);
  if (!stem)
    return parts > 1
      ? DEFAULT_KML_FILE_NAME.replace('.kml', ` (part ${part} of ${parts}).kml`)
      : DEFAULT_KML_FILE_NAME;
  return parts > 1 ? `${stem} (part ${part} of ${parts}).kml` : `${stem}.kml`;
}

/** What follows a list's name in its failed-places CSV's name (`Want to go - failed-places.csv`). */
export const FAILED_CSV_SUFFIX = ' - failed-places';

/** Failed-places CSV file name for a list. */
export function failedCsvFileName(listName: string): string {
  const stem = safeFileStem(listName);
  return stem ? `${stem}${FAILED_CSV_SUFFIX}.csv` : DEFAULT_FAILED_CSV_FILE_NAME;
}

/** The longest stem {@link safeFileStem} keeps. */
const MAX_STEM = 150;
/** The longest folder label put after a list's name. */
const MAX_LABEL = 60;

/** How two output names compare on file systems that ignore case (Windows, macOS). */
function stemKey(stem: string): string {
  return stem.normalize('NFC').toLowerCase();
}

/** `stem (label)`, shortening the stem so the label always survives {@link safeFileStem}'s limit. */
function withLabel(stem: string, label: string): string {
  const tail = ` (${label})`;
  return `${stem.slice(0, MAX_STEM - tail.length).trimEnd()}${tail}`;
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
  const stems = names.map(
    (name) => safeFileStem(name) || DEFAULT_KML_FILE_NAME.replace('.kml', ''),
  );
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
      const label = safeFileStem(folderLabel(first, paths[index]!)).slice(0, MAX_LABEL).trim();
      let name = label ? withLabel(stem, label) : '';
      for (let n = 2; !name || taken.has(stemKey(name)); n += 1) name = withLabel(stem, String(n));
      taken.add(stemKey(name));
      out[index] = name;
    }
  }
  return out;
}

/** The folders of an archive path, outermost first. */
function folderNamesOf(path: string): string[] {
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
