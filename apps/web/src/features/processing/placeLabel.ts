/**
 * What the processing card says about the place being looked at. The worker reports a place's link
 * (or its title when it has none); a person reads a name, never a raw Google URL of hundreds of
 * characters: the name a place link carries (`/maps/place/<name>/…`), the query of a search link
 * (`/maps/search/<query>`, `?q=<query>`), else the link's site and the start of its path.
 */

/** The longest label, in characters; the card also cuts what does not fit its width. */
export const MAX_PLACE_LABEL = 80;

function decoded(segment: string): string {
  const spaced = segment.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** `text` cut to `max` characters (whole code points) with an ellipsis, spaces collapsed. */
function cut(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  return chars.length <= max
    ? clean
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** The name or query a Google Maps link carries, or null when it carries neither. */
function nameInLink(url: URL): string | null {
  const path = url.pathname.split('/').filter(Boolean);
  const maps = path.indexOf('maps');
  const kind = maps >= 0 ? path[maps + 1] : undefined;
  const value = maps >= 0 ? path[maps + 2] : undefined;
  if ((kind === 'place' || kind === 'search') && value && !value.startsWith('data=')) {
    const name = decoded(value).trim();
    if (name !== '') return name;
  }
  for (const key of ['q', 'query']) {
    const query = url.searchParams.get(key)?.trim();
    if (query) return query;
  }
  return null;
}

/**
 * The label of the current item: its name when it is a title or a link carrying one, else the
 * link's site and the start of its path (`google.com/maps/place/…`), at most
 * {@link MAX_PLACE_LABEL} characters.
 */
export function placeLabel(item: string): string {
  const text = item.trim();
  if (!/^https?:\/\//i.test(text)) return cut(text, MAX_PLACE_LABEL);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return cut(text.replace(/^https?:\/\//i, ''), MAX_PLACE_LABEL);
  }
  const name = nameInLink(url);
  if (name !== null) return cut(name, MAX_PLACE_LABEL);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname === '/' ? '' : url.pathname;
  return cut(`${host}${path}`, Math.min(MAX_PLACE_LABEL, 40));
}
