/**
 * A place's ids as a link names them, checked to agree: the converter core's
 * (`@placeport/converter/internal`), the same code that decides whether a link needs a lookup; here
 * for the resolver's own modules.
 */
export {
  cacheKeyOf,
  canonicalFtid,
  namesPlace,
  placeIdsOf,
  type PlaceIds,
} from '@placeport/converter/internal';
