/**
 * Stripe.js in the browser tests: the page's requests for `https://js.stripe.com/**` get the
 * testkit's shim, whose `confirmPayment` authorizes the intent on the fake Stripe API; every
 * other Stripe host is refused, since nothing may leave the machine. The requests are recorded,
 * so a test can prove when Stripe.js was (and was not) asked for.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
/** The Stripe.js stand-in from `@placeport/testkit`. */
export const STRIPE_SHIM_PATH = require.resolve('@placeport/testkit/stripe-shim');

const STRIPE_HOSTS = /^https:\/\/([^/]*\.)?stripe\.(com|network)\//;

/** Every request the page made to a Stripe host, in order. */
export interface StripeTraffic {
  requests: string[];
}

/** Routes Stripe.js to the shim (confirming on `fakeStripeUrl`) and refuses other Stripe hosts. */
export async function useStripeShim(page: Page, fakeStripeUrl: string): Promise<StripeTraffic> {
  const traffic: StripeTraffic = { requests: [] };
  await page.addInitScript((url) => {
    (window as unknown as { __FAKE_STRIPE_URL__: string }).__FAKE_STRIPE_URL__ = url;
  }, fakeStripeUrl);
  await page.route(STRIPE_HOSTS, async (route) => {
    const url = route.request().url();
    traffic.requests.push(url);
    if (url.startsWith('https://js.stripe.com/')) {
      await route.fulfill({ path: STRIPE_SHIM_PATH, contentType: 'text/javascript' });
    } else {
      await route.abort('blockedbyclient');
    }
  });
  return traffic;
}
