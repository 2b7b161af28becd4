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

/** A list's name: its file name without the `.csv` extension (any case), as the seed shows it. */
export function listNameFromPath(path: string): string {
  return fileNameFromPath(path).replace(/\.csv$/i, '');
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

/** Failed-places CSV file name for a list. */
export function failedCsvFileName(listName: string): string {
  const stem = safeFileStem(listName);
  return stem ? `${stem} - ${DEFAULT_FAILED_CSV_FILE_NAME}` : DEFAULT_FAILED_CSV_FILE_NAME;
}
