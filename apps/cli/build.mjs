/**
 * `pnpm build` for the CLI: bundles `src/bin.ts` with the converter, the resolver and their
 * dependencies into `dist/placeport.js`, so a run reads one module instead of a hundred. What only
 * lookups need (the resolver, undici, the cache file's reader) is split into a chunk that
 * `openLocalLookups` imports when a run has links to look up; `--help` and offline runs never read it.
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { placeport: 'src/bin.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // fflate runs its module only when first used (`src/lazy-fflate.ts`): building its tables cost
  // every run ~9 ms of CPU, and only KMZ needs it. Its Node build loads worker_threads (through a
  // CommonJS require) for its asynchronous API, which nothing here uses; its browser build is the
  // same synchronous code without it.
  alias: {
    fflate: fileURLToPath(new URL('src/lazy-fflate.ts', import.meta.url)),
    'fflate-eager': fileURLToPath(import.meta.resolve('fflate')).replace(
      /esm\/index\.mjs$/,
      'lib/browser.cjs',
    ),
  },
  target: 'node20.19',
  sourcemap: 'linked',
  // undici is CommonJS and requires Node's modules; ES modules have no `require` of their own.
  banner: {
    js: "import { createRequire as __placeportRequire } from 'node:module';\nconst require = __placeportRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
