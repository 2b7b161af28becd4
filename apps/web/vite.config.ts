import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** Where the API listens by default (architecture.md); the dev server forwards `/api` to it. */
const API_ORIGIN = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // Each text file of the build also as .br and .gz, made once here: the API serves them to
    // browsers that accept them (apps/api http/static.ts), the main bundle 364 KB as about 100 KB.
    compression({
      include: /\.(?:js|css|html|svg|json)$/,
      threshold: 1024,
      algorithms: ['brotliCompress', 'gzip'],
      logLevel: 'silent',
    }),
  ],
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
    // Written for whoever runs the site (an error tracker, a debugger loading them by hand) but
    // named by no file and not served (apps/api http/static.ts): 3 MB nobody's browser fetches.
    sourcemap: 'hidden',
  },
});
