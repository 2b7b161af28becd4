import type { StateIn } from '../../state/types';
import type { OutputFormat } from '../../worker/types';
import { formatCount } from '../../lib/format';
import { FileNameText } from './FileNameText';

/** My Maps takes this many layers in one map (commonly quoted; product.md). */
export const MY_MAPS_LAYERS_PER_MAP = 10;
/** …and this many places in one map (commonly quoted with it; product.md). */
export const MY_MAPS_PLACES_PER_MAP = 10_000;

/** A map file as the plan counts it. */
interface PlannedFile {
  fileName: string;
  placemarks: number;
}

/**
 * Which files go into which My Maps map, in download order: a new map when the next file would
 * pass {@link MY_MAPS_LAYERS_PER_MAP} layers or {@link MY_MAPS_PLACES_PER_MAP} places.
 */
export function mapsFor(files: readonly PlannedFile[]): string[][] {
  const maps: string[][] = [];
  let layers = MY_MAPS_LAYERS_PER_MAP;
  let places = 0;
  for (const { fileName, placemarks } of files) {
    if (layers === MY_MAPS_LAYERS_PER_MAP || places + placemarks > MY_MAPS_PLACES_PER_MAP) {
      maps.push([]);
      layers = 0;
      places = 0;
    }
    maps.at(-1)!.push(fileName);
    layers += 1;
    places += placemarks;
  }
  return maps;
}

/**
 * Next Steps that match the files: for KML, KMZ and CSV the seed's My Maps steps with one file per
 * layer, "Add layer" before each further import, and which files go into which map past 10
 * layers or 10,000 places; for GPX and GeoJSON, where such files go. Nothing when there are no map files.
 */
export function NextSteps({ state }: { state: StateIn<'complete'> }) {
  // The run's map files in download order.
  const files = state.results.flatMap((result) => result.files);
  if (files.length === 0) return null;
  const format: OutputFormat = state.format;
  if (format === 'gpx' || format === 'geojson') return <OtherApps format={format} />;
  const maps = mapsFor(files);
  return (
    <div className="next-steps">
      <h3>Next Steps</h3>
      <ol>
        <li>
          Go to{' '}
          <a href="https://www.google.com/maps/d/" target="_blank" rel="noreferrer">
            Google My Maps
          </a>{' '}
          on a computer (importing is not available in the phone apps).
        </li>
        <li>
          Click <strong>Create a New Map</strong>.
        </li>
        <li>
          {files.length === 1 ? (
            <>
              In the first layer, click <strong>Import</strong> and upload your file.
            </>
          ) : (
            <>
              In the first layer, click <strong>Import</strong> and upload your first file. For each
              further file, click <strong>Add layer</strong> first, then <strong>Import</strong> in
              the new layer: one file per layer.
            </>
          )}
          {format === 'csv' &&
            ' When asked, choose Latitude and Longitude as the position columns and Name as the title.'}
        </li>
        <li>Customize your map and share it.</li>
      </ol>
      {maps.length > 1 && (
        <div className="maps-plan">
          <p>
            {`A map holds at most ${MY_MAPS_LAYERS_PER_MAP} layers and ${formatCount(MY_MAPS_PLACES_PER_MAP)} places, so your ${files.length} files go into ${maps.length} maps:`}
          </p>
          <ol>
            {maps.map((group, index) => (
              <li key={group[0]}>
                <strong>{`Map ${index + 1}:`}</strong>{' '}
                {group.map((file, at) => (
                  <span key={file}>
                    {at > 0 && ', '}
                    <FileNameText fileName={file} />
                  </span>
                ))}
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

function OtherApps({ format }: { format: 'gpx' | 'geojson' }) {
  return (
    <div className="next-steps">
      <h3>Next Steps</h3>
      {format === 'gpx' ? (
        <ol>
          <li>
            Send the GPX files to your phone (e-mail, cloud drive or a cable), or keep them on your
            computer for a GPS app.
          </li>
          <li>
            In Organic Maps or OsmAnd, open each file (or share it to the app): its places are added
            as a list of bookmarks or favourites named after your list, each with its note, comment,
            tags and Google Maps link.
          </li>
          <li>In other GPS apps, use their Import of GPX waypoints.</li>
        </ol>
      ) : (
        <ol>
          <li>Open the GeoJSON files in a GIS tool (QGIS, geojson.io, Mapbox, Leaflet…).</li>
          <li>
            Each place is a Point feature with its name, note, comment, tags and Google Maps link as
            properties, and all of them as one description (what Organic Maps and geojson.io show),
            longitude first (RFC 7946).
          </li>
        </ol>
      )}
    </div>
  );
}
