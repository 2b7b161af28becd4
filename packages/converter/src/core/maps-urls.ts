/**
 * A loose test of "the URL contains a maps-service address" (the seed's rule for sending a link to be
 * resolved). The API applies its own strict allowlist on every hop; this only avoids sending links that
 * cannot be places, such as ordinary web pages.
 */
const MAPS_ADDRESS =
  /^https?:\/\/(?:(?:www\.|maps\.)?google\.[a-z.]{2,6}\/(?:maps|search|\?)|maps\.google\.[a-z.]{2,6}\/|maps\.app\.goo\.gl\/|goo\.gl\/maps\/)/i;

export function isMapsServiceUrl(url: string): boolean {
  return MAPS_ADDRESS.test(url.trim());
}
