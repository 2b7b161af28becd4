import { defineConfig } from 'vitest/config';
import { UNDER_LOAD } from '../../vitest.shared';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    ...UNDER_LOAD,
  },
});
