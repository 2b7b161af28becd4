/** A file format a list can be written in (product.md "Outputs"). */
export type OutputFormat = 'kml' | 'kmz' | 'gpx' | 'geojson' | 'csv';

/** Every format, in the order a UI offers them; KML, the default, first. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['kml', 'kmz', 'gpx', 'geojson', 'csv'];

/** Whether a value (a CLI flag, a stored setting) names an output format. */
export function isOutputFormat(text: unknown): text is OutputFormat {
  return typeof text === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(text);
}
