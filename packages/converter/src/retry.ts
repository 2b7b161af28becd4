/**
 * "Retry failed places" (product.md, Outputs): the places of a conversion that a later lookup may
 * still place, as lists of their own, so they go through selection, a new authorization for just
 * those places, and conversion like any list. A retry list says what it is in its `origin`.
 */
import { coordinateSources, type InspectedList } from './inspect.js';
import { failedPlacesListName, labelledStem } from './core/names.js';
import { RETRYABLE_AGAIN, type UnplacedReason } from './core/reasons.js';
import type { ConversionResult, ListSummary } from './core/types.js';

/** Paths of retry lists start with this, so they never collide with the archive's own paths. */
const RETRY_PATH_PREFIX = 'retry:';

/**
 * One list per converted list with places worth another lookup: named "<list> (failed places)",
 * written under "<output name> (retry)" so its files sit beside the first run's without replacing
 * them, with `origin` naming the archive's list (`lists`, by path) its places come from, also for a
 * retry of a retry. Places come back as the archive had them (title, note, link, comment, tags),
 * without the earlier outcome.
 */
export function retryLists(
  results: readonly ConversionResult[],
  lists: readonly ListSummary[],
): InspectedList[] {
  const byPath = new Map(lists.map((list) => [list.path, list]));
  return results.flatMap((result) => {
    const places = result.places
      .filter((place) => !place.coordinates && RETRYABLE_AGAIN.has(place.reason as UnplacedReason))
      .map(({ coordinates: _c, reason: _r, ...place }) => ({ ...place }));
    if (places.length === 0) return [];
    const { needs, ...counts } = coordinateSources(places);
    const of = result.origin?.of ?? result.path;
    const source = byPath.get(of);
    return [
      {
        path: `${RETRY_PATH_PREFIX}${of}`,
        name: failedPlacesListName(source?.name ?? result.name),
        kind: 'csv' as const,
        outputName: labelledStem(source?.outputName ?? result.outputName, 'retry'),
        origin: { kind: 'retry' as const, of },
        size: 0,
        rowCount: places.length,
        ...counts,
        parsed: {
          places,
          needs,
          columns: [],
          ...(result.description ? { description: result.description } : {}),
        },
      },
    ];
  });
}
