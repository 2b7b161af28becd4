/**
 * Makes an API call refuse the page the way the API refuses: `{ error: { code, message, ... } }`,
 * its status and, for 429 and 503, `Retry-After`. Used for refusals that are hard to provoke through the
 * API's real settings (an overloaded lookup queue, Redis away, Stripe unreachable).
 */
import type { ErrorBody } from '@placeport/contract';
import type { Page } from '@playwright/test';

/** One refusal as the API sends it: its status, body (code, message, numbers) and `Retry-After`. */
export interface Refusal extends ErrorBody {
  status: number;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
}

/** The API's path of a call, e.g. `resolve-urls-batch` for `POST /api/resolve-urls-batch`. */
export type ApiCall =
  'resolve-urls-batch' | 'create-payment-intent' | 'capture-payment' | 'demo/authorize';

/** Answers every `call` from `page` with `refusal` until {@link allow} (or the page closes). */
export async function refuse(page: Page, call: ApiCall, refusal: Refusal): Promise<void> {
  await page.route(`**/api/${call}`, (route) => route.fulfill(answerOf(refusal)));
}

/** The answer that carries `refusal`, for `route.fulfill`. */
export function answerOf({ status, retryAfter, ...error }: Refusal) {
  return {
    status,
    headers: {
      'Content-Type': 'application/json',
      ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
    },
    body: JSON.stringify({ error }),
  };
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
