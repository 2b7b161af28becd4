import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { UNDER_LOAD } from '../../vitest.shared';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    ...UNDER_LOAD,
  },
});
