/**
 * Timeouts every unit suite uses. CI runs lint, typecheck, build and every suite at once on two
 * cores, so a test can take several times what it takes on an idle machine, and no test's outcome
 * may depend on that: these limits only stop a hang. Speed is measured by `pnpm bench`, never
 * asserted by a test.
 */
export const UNDER_LOAD = {
  testTimeout: 120_000,
  hookTimeout: 120_000,
  teardownTimeout: 60_000,
} as const;
