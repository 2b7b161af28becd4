import { defineConfig } from 'vitest/config';
import { UNDER_LOAD } from '../../vitest.shared';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file in its own process: the hostile-page test reads the process's CPU time.
    pool: 'forks',
    ...UNDER_LOAD,
  },
});
