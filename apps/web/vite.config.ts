import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the API listens by default (architecture.md); the dev server forwards `/api` to it. */
const API_ORIGIN = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: API_ORIGIN, changeOrigin: false } },
  },
  preview: {
    host: '127.0.0.1',
    proxy: { '/api': { target: API_ORIGIN, changeOrigin: false } },
  },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
});
