/**
 * Holds some of the page's lookups for as long as a test wants, so what the server has found for a
 * payment is fixed by the archive, not by timing. The conversion sends its lookups in requests that
 * cross lists (`POST /api/resolve-urls-batch`); a request holding any link the test names is never
 * answered (the page keeps waiting), and its other links are sent on to the API, which looks them up
 * and counts them for the payment as it would have.
 */
import type { Page, Route } from '@playwright/test';

/** The requests held so far, and a way to let them go. */
export interface LookupHold {
  /** Held requests whose other links the server has answered (and counted). */
  held(): number;
  /** Ends the held requests (they were never going to be answered). */
  release(): Promise<void>;
}

/** Holds every lookup request with a link for which `never(link)` is true. */
export async function holdLookups(
  page: Page,
  never: (link: string) => boolean,
): Promise<LookupHold> {
  const routes: Route[] = [];
  let held = 0;
  await page.route('**/api/resolve-urls-batch', async (route) => {
    const body = route.request().postDataJSON() as { urls: string[] };
    if (!body.urls.some(never)) return route.continue();
    routes.push(route);
    const rest = body.urls.filter((link) => !never(link));
    if (rest.length > 0) await route.fetch({ postData: JSON.stringify({ ...body, urls: rest }) });
    held += 1;
  });
  return {
    held: () => held,
    release: async () => {
      await Promise.all(routes.map((route) => route.abort().catch(() => undefined)));
    },
  };
}
