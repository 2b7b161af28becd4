import { readFileSync } from 'node:fs';
import type { LatLng } from '../takeout/index.js';

/** A full place page Google really served (captured by another public project), kept unchanged. */
export interface RealPlacePage {
  /** File name in `packages/testkit/fixtures/google-pages/`. */
  file: string;
  /** The page's interface language. */
  language: string;
  /** The place's feature id, as the page binds its pin to it. */
  ftid: string;
  /** Its CID (the ftid's low half, decimal). */
  cid: string;
  /** Where the place is: the pin the page binds to the ftid. */
  point: LatLng;
  /** The short link the page was captured from. */
  shortLink: string;
  /** A Takeout-style link to the place (`/maps/place/<name>/data=!4m2!3m1!1s<ftid>`). */
  link: string;
  /** The page's HTML. */
  html(): string;
}

const FIXTURES = new URL('../../fixtures/google-pages/', import.meta.url);
const bodies = new Map<string, string>();

function realPage(
  page: Omit<RealPlacePage, 'cid' | 'html' | 'link'> & { name: string },
): RealPlacePage {
  return {
    ...page,
    link: `https://www.google.com/maps/place/${encodeURIComponent(page.name).replaceAll('%20', '+')}/data=!4m2!3m1!1s${page.ftid}`,
    cid: BigInt(page.ftid.split(':')[1]!).toString(10),
    html: () => {
      let body = bodies.get(page.file);
      if (body === undefined) {
        body = readFileSync(new URL(page.file, FIXTURES), 'utf8');
        bodies.set(page.file, body);
      }
      return body;
    },
  };
}

/**
 * Real full place pages (see the fixtures' README). The fake Google serves each for its place (by
 * ftid or CID) and its Places API answers its pin, so resolver, API and CLI tests run on a page
 * shape Google really serves: the product name as `<title>`, the place in `itemprop="name"` and
 * `og:title`, and the pin bound to the ftid inside a JS string among nearby places' records.
 */
export const REAL_PLACE_PAGES: readonly RealPlacePage[] = [
  realPage({
    file: 'full-place-page-nl.html',
    language: 'nl',
    ftid: '0x40b1ffed911b9fcf:0x7394a7e7855d3929',
    point: { lat: 44.4490541, lng: 26.0888398 },
    shortLink: 'https://maps.app.goo.gl/TmbeHMiLEfTBws9EA',
    name: 'RAI - Romantic & Intimate',
  }),
];

/** The real page of the place with this CID, if one is kept. */
export function realPageForCid(cid: string): RealPlacePage | undefined {
  return REAL_PLACE_PAGES.find((page) => page.cid === cid);
}
