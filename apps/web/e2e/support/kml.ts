/**
 * Reads downloaded KML and failed-places CSV files the way other tools will: KML through
 * `@tmcw/togeojson` over `@xmldom/xmldom`, CSV through PapaParse.
 */
import { readFile } from 'node:fs/promises';
import { parseXml } from '@placeport/testkit';
import type { Download } from '@playwright/test';
import { kml } from '@tmcw/togeojson';
import Papa from 'papaparse';
import type { ExpectedPlacemark } from './archives';

/** A downloaded file: the name the page gave it and its text. */
export interface DownloadedFile {
  fileName: string;
  text: string;
}

/** The part of a GeoJSON feature the tests read. */
interface GeoJsonPoint {
  geometry: { type: string; coordinates: number[] } | null;
  properties: Record<string, unknown> | null;
}

/** Reads a finished download. */
export async function readDownload(download: Download): Promise<DownloadedFile> {
  const path = await download.path();
  return { fileName: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** The document name and each point placemark (name, `[lng, lat]`) of a KML text. */
export function readKml(text: string): {
  documentName: string | null;
  placemarks: ExpectedPlacemark[];
} {
  const doc = parseXml(text);
  const documentName =
    doc.getElementsByTagName('Document')[0]?.getElementsByTagName('name')[0]?.textContent ?? null;
  // togeojson's types name the `geojson` package, which is not installed: only what is read here.
  const features = kml(doc).features as unknown as GeoJsonPoint[];
  const placemarks = features.map((feature) => {
    if (feature.geometry?.type !== 'Point') {
      throw new Error(`Placemark is not a point: ${JSON.stringify(feature.geometry)}`);
    }
    const [lng, lat] = feature.geometry.coordinates;
    return {
      name: String(feature.properties?.name ?? ''),
      lngLat: [lng!, lat!] as [number, number],
    };
  });
  return { documentName, placemarks };
}

/** Rows of the failed-places CSV as objects keyed by its header (Title, Note, URL, Comment). */
export function readFailedCsv(text: string): { fields: string[]; rows: Record<string, string>[] } {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  });
  if (parsed.errors.length > 0) {
    throw new Error(
      `The failed-places CSV does not parse: ${parsed.errors.map((e) => e.message).join(', ')}`,
    );
  }
  return { fields: parsed.meta.fields ?? [], rows: parsed.data };
}
