/**
 * The browser tests' fixtures. Per Playwright worker (the suite runs one), on loopback with random
 * ports: the fake Google upstream and the fake Stripe API from `@placeport/testkit`, and the real
 * API process twice — once in demo payments mode, once in Stripe mode against the fake Stripe.
 * Each starts the first time a test asks for it and stops when the worker ends. The fakes live in
 * this process, so tests can steer them and read what reached them.
 *
 * A spec that needs the API started with other settings sets the worker option for it with
 * `test.use({ settleAfterMinutes: '0.05' })`: Playwright then runs that spec in a worker of its
 * own, with its own servers, so no other test meets those settings.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test as base, expect, type WorkerInfo } from '@playwright/test';
import {
  startFakeGoogle,
  startFakeStripe,
  type FakeGoogle,
  type FakeStripe,
} from '@placeport/testkit';
import { startApi, type ApiProcess } from './api-process';

/** Where an API process's log goes: `test-results/e2e/api-<mode>-worker<n>.log`. */
async function logFile(workerInfo: WorkerInfo, mode: string): Promise<string> {
  await mkdir(workerInfo.project.outputDir, { recursive: true });
  return join(workerInfo.project.outputDir, `api-${mode}-worker${workerInfo.workerIndex}.log`);
}

interface Servers {
  fakeGoogle: FakeGoogle;
  fakeStripe: FakeStripe;
  /** The API with no Stripe keys: demo payments. */
  demoApi: ApiProcess;
  /** The API with test Stripe keys, talking to `fakeStripe`. */
  stripeApi: ApiProcess;
}

/** Settings a spec may give the API processes of its worker. */
interface ApiOptions {
  /**
   * `SETTLE_AFTER_MINUTES`: an authorization unused this long is settled by the server's sweep
   * (`'0.05'` = 3 s). Unset: the API's default (30 minutes), which no test outlasts.
   */
  settleAfterMinutes: string | undefined;
  /**
   * Any other API settings, e.g. `{ FREE_LINKS_PER_DAY: '0' }` or `{ DEMO_PAYMENTS: 'on',
   * TRUST_PROXY: '1' }` (demo payments capped as on a reachable server). Unset: none.
   */
  apiSettings: Record<string, string> | undefined;
}

/** The environment the API processes get from {@link ApiOptions}. */
function optionSettings({ settleAfterMinutes, apiSettings }: ApiOptions): Record<string, string> {
  return {
    ...(settleAfterMinutes === undefined ? {} : { SETTLE_AFTER_MINUTES: settleAfterMinutes }),
    ...apiSettings,
  };
}

/** `test` with the servers as worker fixtures; import it instead of Playwright's own. */
export const test = base.extend<object, Servers & ApiOptions>({
  settleAfterMinutes: [undefined, { option: true, scope: 'worker' }],
  apiSettings: [undefined, { option: true, scope: 'worker' }],
  fakeGoogle: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
    async ({}, use) => {
      const google = await startFakeGoogle();
      await use(google);
      await google.close();
    },
    { scope: 'worker' },
  ],
  fakeStripe: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
    async ({}, use) => {
      const stripe = await startFakeStripe();
      await use(stripe);
      await stripe.close();
    },
    { scope: 'worker' },
  ],
  demoApi: [
    async ({ fakeGoogle, settleAfterMinutes, apiSettings }, use, workerInfo) => {
      const api = await startApi(
        {
          MAPS_UPSTREAM_ORIGIN: fakeGoogle.url,
          ...optionSettings({ settleAfterMinutes, apiSettings }),
        },
        await logFile(workerInfo, 'demo'),
      );
      await use(api);
      await api.stop();
    },
    { scope: 'worker' },
  ],
  stripeApi: [
    async ({ fakeGoogle, fakeStripe, settleAfterMinutes, apiSettings }, use, workerInfo) => {
      const api = await startApi(
        {
          MAPS_UPSTREAM_ORIGIN: fakeGoogle.url,
          STRIPE_SECRET_KEY: fakeStripe.secretKey,
          STRIPE_PUBLISHABLE_KEY: fakeStripe.publishableKey,
          STRIPE_API_BASE: fakeStripe.url,
          ...optionSettings({ settleAfterMinutes, apiSettings }),
        },
        await logFile(workerInfo, 'stripe'),
      );
      await use(api);
      await api.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect };
