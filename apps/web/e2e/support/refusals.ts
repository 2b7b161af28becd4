/**
 * Makes an API call refuse the page the way the API refuses: `{ error: { code, message } }` with its
 * status and, for 429 and 503, `Retry-After`. Used for refusals that are hard to provoke through the
 * API's real settings (an overloaded lookup queue, Redis away, Stripe unreachable).
 */
import type { Page } from '@playwright/test';

/** One refusal as the API sends it. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
}

/** The API's path of a call, e.g. `resolve-urls-batch` for `POST /api/resolve-urls-batch`. */
export type ApiCall =
  'resolve-urls-batch' | 'create-payment-intent' | 'capture-payment' | 'demo/authorize';

/** Answers every `call` from `page` with `refusal` until {@link allow} (or the page closes). */
export async function refuse(page: Page, call: ApiCall, refusal: Refusal): Promise<void> {
  await page.route(`**/api/${call}`, (route) =>
    route.fulfill({
      status: refusal.status,
      headers: {
        'Content-Type': 'application/json',
        ...(refusal.retryAfter === undefined ? {} : { 'Retry-After': String(refusal.retryAfter) }),
      },
      body: JSON.stringify({ error: { code: refusal.code, message: refusal.message } }),
    }),
  );
}

/** Lets `call` reach the API again. */
export async function allow(page: Page, call: ApiCall): Promise<void> {
  await page.unroute(`**/api/${call}`);
}

/** The lookup queue is full: what the API answers when too many lookups wait. */
export const OVERLOADED: Refusal = {
  status: 503,
  code: 'overloaded',
  message: 'Too many lookups are waiting; please try again shortly.',
  retryAfter: 1,
};
