/**
 * "Retry failed places" (product.md, Outputs): the places of a conversion that a later lookup may
 * still place, as lists of their own, so they go through selection, a new authorization for just
 * those places, and conversion like any list.
 */
import { countCoordinateSources, type InspectedList } from './inspect.js';
import { labelledStem } from './core/names.js';
import { RETRYABLE_AGAIN, type UnplacedReason } from './core/reasons.js';
import type { ConversionResult } from './core/types.js';

/** Paths of retry lists start with this, so they never collide with the archive's own paths. */
export const RETRY_PATH_PREFIX = 'retry:';

/** True for a list made by {@link retryLists}. */
export function isRetryPath(path: string): boolean {
  return path.startsWith(RETRY_PATH_PREFIX);
}

/**
 * One list per converted list with places worth another lookup: named "<list> (failed places)",
 * written under "<output name> (retry)" so its files sit beside the first run's without replacing
 * them. Places come back as the archive had them (title, note, link, comment, tags), without the
 * earlier outcome.
 */
export function retryLists(results: readonly ConversionResult[]): InspectedList[] {
  return results.flatMap((result) => {
    const places = result.places
      .filter((place) => !place.coordinates && RETRYABLE_AGAIN.has(place.reason as UnplacedReason))
      .map(({ coordinates: _c, reason: _r, ...place }) => ({ ...place }));
    if (places.length === 0) return [];
    const source = isRetryPath(result.path)
      ? result.path.slice(RETRY_PATH_PREFIX.length)
      : result.path;
    const baseName = result.listName.replace(/ \(failed places\)$/, '');
    const baseOutput = result.outputName.replace(/ \(retry\)$/, '');
    return [
      {
        path: `${RETRY_PATH_PREFIX}${source}`,
        name: `${baseName} (failed places)`,
        kind: 'csv' as const,
        outputName: labelledStem(baseOutput, 'retry'),
        content: '',
        size: 0,
        rowCount: places.length,
        ...countCoordinateSources(places),
        parsed: {
          places,
          columns: [],
          ...(result.description ? { description: result.description } : {}),
        },
      },
    ];
  });
}
