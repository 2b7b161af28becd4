/**
 * The allowlist is the converter core's (`@placeport/converter/internal`), so the selection counts,
 * the pipeline, the CLI, the API's allowances and the resolver judge links by one rule; here for the
 * resolver's own modules.
 */
export { isAllowedFetchUrl, isGooglePlaceLink, isShortLink } from '@placeport/converter/internal';
