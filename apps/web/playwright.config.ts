/**
 * Browser tests in Debian's Chromium against the real API process (see `e2e/support/`). Run with
 * `pnpm --filter @placeport/web test:e2e`, which first makes sure Chromium is installed; the web
 * app and the API must be built (turbo's `test:e2e` task builds them). One worker, one test at a
 * time: the machine has two cores, and Chromium, the API and the conversion worker share them.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  // Generous: the suite runs on a two-core machine that may be busy; a limit only stops a hang.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'test-results/e2e-report' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
