/**
 * The output formats of a run and the one entry point that writes a list's files in any of them.
 * KML is the default and follows the seed; the others carry the same places (product.md "Outputs").
 */
import { isOutputFormat, OUTPUT_FORMATS, type OutputFormat } from '@placeport/contract';
import { ConverterError } from '../errors.js';
import {
  buildKml,
  kmlChunks,
  KML_DOCUMENT_NAME,
  type KmlFolder,
  type MappedPlace,
} from '../kml.js';
import { LIMITS } from '../limits.js';
import {
  CSV_MIME_TYPE,
  DEFAULT_FILE_STEM,
  fileNameWithin,
  KML_MIME_TYPE,
  partSuffix,
  safeFileStem,
} from '../names.js';
import { buildCoordinatesCsv } from './coordinates-csv.js';
import { buildGeoJson } from './geojson.js';
import { buildGpx } from './gpx.js';
import { buildKmz, buildKmzAsync } from './kmz.js';
import type { ZipAsyncOptions } from './zip.js';
import { splitEvenly } from './split.js';

export { splitEvenly } from './split.js';

/** The formats' names, their order and the guard are the contract's (the CLI parses them too). */
export { OUTPUT_FORMATS, isOutputFormat, type OutputFormat } from '@placeport/contract';

/**
 * `format` when it is one of {@link OUTPUT_FORMATS}. A JavaScript caller (or a page across the
 * worker boundary) may pass anything: every entry point that takes a format asks here first, so
 * `'pdf'` is refused in words rather than failing deep inside a writer.
 *
 * @throws ConverterError `unknown-format`, naming the formats there are.
 */
export function checkFormat(format: unknown): OutputFormat {
  if (isOutputFormat(format)) return format;
  throw unknownFormat(format);
}

/** {@link checkFormat}'s refusal of `format`. */
function unknownFormat(format: unknown): ConverterError {
  return new ConverterError(
    'unknown-format',
    `"${String(format)}" is not a file format PlacePort writes. Choose one of: ${OUTPUT_FORMATS.join(', ')}.`,
  );
}

/** What a UI and a download need to know about a format. */
export interface FormatInfo {
  /** The file extension, without the dot. */
  extension: string;
  /** The MIME type for a download or a `Blob`. */
  mimeType: string;
  /** The format's own short name, for buttons: "KML", "GeoJSON". */
  name: string;
  /** A short label for a format select, naming what the format is for. */
  label: string;
  /** One sentence on when to choose it. */
  description: string;
}

/** Per format: its file extension, MIME type, a label for a menu and when to choose it. */
export const FORMAT_INFO: Readonly<Record<OutputFormat, Readonly<FormatInfo>>> = {
  kml: {
    extension: 'kml',
    name: 'KML',
    mimeType: KML_MIME_TYPE,
    label: 'KML (Google My Maps)',
    description: 'Import each file as a layer in Google My Maps; Google Earth opens it too.',
  },
  kmz: {
    extension: 'kmz',
    name: 'KMZ',
    mimeType: 'application/vnd.google-earth.kmz',
    label: 'KMZ (zipped KML)',
    description: 'The same KML, compressed: smaller files for My Maps and Google Earth.',
  },
  gpx: {
    extension: 'gpx',
    name: 'GPX',
    mimeType: 'application/gpx+xml',
    label: 'GPX (Organic Maps, OsmAnd, GPS apps)',
    description: 'Waypoints with name, description and link, for offline map and GPS apps.',
  },
  geojson: {
    extension: 'geojson',
    name: 'GeoJSON',
    mimeType: 'application/geo+json',
    label: 'GeoJSON (developers, GIS)',
    description: 'Point features with every field as a property, for code and GIS tools.',
  },
  csv: {
    extension: 'csv',
    name: 'CSV',
    mimeType: CSV_MIME_TYPE,
    label: 'CSV with coordinates (spreadsheets, My Maps)',
    description: 'One row per place with Latitude and Longitude columns.',
  },
};

/**
 * The file name of a list's file in a format: the list's name made safe (`safeFileStem`), `my-saved-places`
 * when nothing is left, ` (part i of n)` when the list is split, and the format's extension, within
 * `MAX_FILE_NAME_BYTES`.
 */
export function outputFileName(
  listName: string,
  format: OutputFormat,
  part = 1,
  parts = 1,
): string {
  const stem = safeFileStem(listName) || DEFAULT_FILE_STEM;
  const { extension } = FORMAT_INFO[checkFormat(format)];
  return fileNameWithin(stem, `${partSuffix(part, parts)}.${extension}`);
}

/** What the writers need of a list beyond its places. */
export interface ListMeta {
  /** The list's name: KML's `<Folder>`, GPX's and GeoJSON's collection name. */
  name: string;
  /** The list description written above its header in Takeout, carried where a format has room. */
  description?: string;
  /** The name files are written under when it differs from `name` (same-named lists, see `listOutputNames`). */
  outputName?: string;
}

/** One file of a run, ready to save: a map file, or a list's failed-places CSV. */
export interface OutputFile {
  fileName: string;
  mimeType: string;
  /** Text files are strings (save them as UTF-8); KMZ is bytes. */
  data: string | Uint8Array;
}

/** One map file written for a list; lists over the per-file limit are split into even parts. */
export interface OutputPart extends OutputFile {
  /** The format it is written in (a run may write several). */
  format: OutputFormat;
  placemarks: number;
  /** 1-based part number, and the number of parts (1 when not split). */
  part: number;
  parts: number;
}

/** What KML's `<Folder>`, GPX's metadata and GeoJSON's collection say of a list. */
function folderOf(list: ListMeta | undefined): KmlFolder | undefined {
  return list
    ? { name: list.name, ...(list.description ? { description: list.description } : {}) }
    : undefined;
}

/**
 * The list as one of its parts names itself inside the file: `Want to go (part 2 of 3)` when it is
 * split, so apps that name a list from the file's own name (Organic Maps takes GPX's
 * `<metadata><name>`) keep the parts apart; the list itself otherwise.
 */
export function partList(list: ListMeta, part: number, parts: number): ListMeta {
  return parts > 1 ? { ...list, name: `${list.name}${partSuffix(part, parts)}` } : list;
}

/**
 * One file's content in a format, for the given places (all with coordinates). KML keeps the seed's
 * Document and, when the list has a description, puts the places in a `<Folder>` carrying it; GPX and
 * GeoJSON carry the list's name and description; the CSV has no room for them.
 */
export function writePlaces(
  format: OutputFormat,
  places: readonly MappedPlace[],
  list?: ListMeta,
): string | Uint8Array {
  const named = folderOf(list);
  switch (format) {
    case 'kml':
      return buildKml(places, KML_DOCUMENT_NAME, named);
    case 'kmz':
      return buildKmz(kmlChunks(places, KML_DOCUMENT_NAME, named));
    case 'gpx':
      return buildGpx(places, named);
    case 'geojson':
      return buildGeoJson(places, named);
    case 'csv':
      return buildCoordinatesCsv(places);
    default:
      throw unknownFormat(format satisfies never);
  }
}

/**
 * {@link writePlaces}, with a KMZ compressed by the platform's `CompressionStream` when `options`
 * hands one in ({@link buildKmzAsync}): the same `doc.kml`, a quarter faster and a sixth smaller.
 */
export async function writePlacesAsync(
  format: OutputFormat,
  places: readonly MappedPlace[],
  list?: ListMeta,
  options: ZipAsyncOptions = {},
): Promise<string | Uint8Array> {
  return format === 'kmz'
    ? buildKmzAsync(kmlChunks(places, KML_DOCUMENT_NAME, folderOf(list)), options)
    : writePlaces(format, places, list);
}

/**
 * {@link writePlaces}'s content in pieces to write one after the other: KML a few hundred placemarks
 * at a time ({@link kmlChunks}), so a file is saved without its whole text ever existing; the other
 * formats in one piece.
 */
export function writePlacesChunks(
  format: OutputFormat,
  places: readonly MappedPlace[],
  list?: ListMeta,
): Iterable<string | Uint8Array> {
  return format === 'kml'
    ? kmlChunks(places, KML_DOCUMENT_NAME, folderOf(list))
    : [writePlaces(format, places, list)];
}

/** A file of a list, named and counted, with the places it holds, not yet written. */
export interface ListPart extends Omit<OutputPart, 'data'> {
  places: readonly MappedPlace[];
}

/**
 * A list's files in a format, named but not written: the places split evenly into parts of at most
 * `maxPerFile` (`splitEvenly`), each named by `outputFileName` after the list's output name. Cheap
 * (the parts share the places); write each with {@link writePlaces} or {@link writePlacesChunks}.
 */
export function listParts(
  list: ListMeta,
  places: readonly MappedPlace[],
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): ListPart[] {
  const chunks = splitEvenly(places, maxPerFile);
  const { mimeType } = FORMAT_INFO[checkFormat(format)];
  return chunks.map((chunk, index) => ({
    fileName: outputFileName(list.outputName ?? list.name, format, index + 1, chunks.length),
    mimeType,
    format,
    places: chunk,
    placemarks: chunk.length,
    part: index + 1,
    parts: chunks.length,
  }));
}

/**
 * A list's files in a format ({@link listParts}), each written as it is pulled. Pull it from a
 * generator feeding `zipFiles` and only one file's text exists at a time.
 */
export function* eachListFile(
  list: ListMeta,
  places: readonly MappedPlace[],
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): Generator<OutputPart> {
  for (const part of listParts(list, places, format, maxPerFile)) {
    const { fileName, mimeType, placemarks, parts } = part;
    const data = writePlaces(format, part.places, partList(list, part.part, parts));
    yield { fileName, mimeType, format, data, placemarks, part: part.part, parts };
  }
}

/**
 * {@link writeListFiles} written by {@link writePlacesAsync}: each KMZ compressed by the platform's
 * `CompressionStream` when `options` hands one in; the other formats as {@link writeListFiles} writes
 * them.
 */
export async function writeListFilesAsync(
  list: ListMeta,
  places: readonly MappedPlace[],
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
  options: ZipAsyncOptions = {},
): Promise<OutputPart[]> {
  const files: OutputPart[] = [];
  for (const { places: held, ...part } of listParts(list, places, format, maxPerFile)) {
    const data = await writePlacesAsync(
      format,
      held,
      partList(list, part.part, part.parts),
      options,
    );
    files.push({ ...part, data });
  }
  return files;
}

/**
 * A list's files in a format, all at once (see {@link eachListFile}): one file, or even parts of at
 * most `maxPerFile` placemarks (2,000 by default, one My Maps layer) named `<list> (part i of n).<ext>`.
 */
export function writeListFiles(
  list: ListMeta,
  places: readonly MappedPlace[],
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): OutputPart[] {
  return Array.from(eachListFile(list, places, format, maxPerFile));
}
