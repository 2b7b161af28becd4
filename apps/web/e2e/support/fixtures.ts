/**
 * The browser tests' fixtures. Per Playwright worker (the suite runs one), on loopback with random
 * ports: the fake Google upstream and the fake Stripe API from `@placeport/testkit`, and the real
 * API process twice — once in demo payments mode, once in Stripe mode against the fake Stripe.
 * Each starts the first time a test asks for it and stops when the worker ends. The fakes live in
 * this process, so tests can steer them and read what reached them.
 */
import { test as base, expect } from '@playwright/test';
import {
  startFakeGoogle,
  startFakeStripe,
  type FakeGoogle,
  type FakeStripe,
} from '@placeport/testkit';
import { startApi, type ApiProcess } from './api-process';

interface Servers {
  fakeGoogle: FakeGoogle;
  fakeStripe: FakeStripe;
  /** The API with no Stripe keys: demo payments. */
  demoApi: ApiProcess;
  /** The API with test Stripe keys, talking to `fakeStripe`. */
  stripeApi: ApiProcess;
}

/** `test` with the servers as worker fixtures; import it instead of Playwright's own. */
export const test = base.extend<object, Servers>({
  fakeGoogle: [
    async ({}, use) => {
      const google = await startFakeGoogle();
      await use(google);
      await google.close();
    },
    { scope: 'worker' },
  ],
  fakeStripe: [
    async ({}, use) => {
      const stripe = await startFakeStripe();
      await use(stripe);
      await stripe.close();
    },
    { scope: 'worker' },
  ],
  demoApi: [
    async ({ fakeGoogle }, use) => {
      const api = await startApi({ MAPS_UPSTREAM_ORIGIN: fakeGoogle.url });
      await use(api);
      await api.stop();
    },
    { scope: 'worker' },
  ],
  stripeApi: [
    async ({ fakeGoogle, fakeStripe }, use) => {
      const api = await startApi({
        MAPS_UPSTREAM_ORIGIN: fakeGoogle.url,
        STRIPE_SECRET_KEY: fakeStripe.secretKey,
        STRIPE_PUBLISHABLE_KEY: fakeStripe.publishableKey,
        STRIPE_API_BASE: fakeStripe.url,
      });
      await use(api);
      await api.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect };
