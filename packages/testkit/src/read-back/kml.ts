/**
 * Reads KML back the way other software does: a real XML parser (`@xmldom/xmldom`) that fails on
 * any well-formedness error, then togeojson. The converter's and the CLI's tests share it, so both
 * judge their files by the same independent reader.
 */
import { kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import type { FeatureCollection, Geometry } from 'geojson';

type KmlDocument = Parameters<typeof kmlToGeoJson>[0];

/** Parses XML, failing on any well-formedness error (warnings aside). */
export function parseXml(text: string) {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(text, 'text/xml');
  if (errors.length > 0) throw new Error(`XML is not well-formed: ${errors.join('; ')}`);
  return doc;
}

/** Parses KML with a real XML parser, failing on any well-formedness error, and reads it as GeoJSON with togeojson. */
export function parseKml(text: string): {
  doc: ReturnType<typeof parseXml>;
  geojson: FeatureCollection<Geometry | null>;
} {
  const doc = parseXml(text);
  return { doc, geojson: kmlToGeoJson(doc as unknown as KmlDocument) };
}

/** Each placemark's name and `[lng, lat]`, in file order. */
export function kmlPoints(text: string): Array<{ name: string; lngLat: number[] }> {
  return parseKml(text).geojson.features.map(
    (feature: { properties?: Record<string, unknown> | null; geometry: unknown }) => ({
      name: String(feature.properties?.name),
      lngLat: (feature.geometry as { coordinates: number[] }).coordinates.slice(0, 2),
    }),
  );
}
