/**
 * `pnpm build` for the CLI, two bundles:
 * - `dist/placeport.cjs`: `src/bin.ts`, the command line and `--help` (usage, help, settings), as
 *   CommonJS, so answering them never starts Node's ES module loader;
 * - `dist/main.js`: the run (`src/main.ts`) with the converter, the resolver and their
 *   dependencies, as ES modules, so a run reads a few modules instead of a hundred. What only lookups
 *   need (the resolver, undici, the cache file's reader) is split into a chunk that
 *   `openLocalLookups` imports when a run has links to look up; offline runs never read it. The tar
 *   reader (modern-tar) is another chunk, imported only for a `.tgz` (`src/tar-archive.ts`).
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  logLevel: 'warning',
};

await rm('dist', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: 'src/main.ts' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  plugins: [
    {
      // fflate runs its module only when first used (`src/lazy-fflate.ts`, which requires
      // `src/fflate-parts.ts`): building its tables cost every run ~6 ms of CPU, and only KMZ needs
      // it. Its Node build loads worker_threads (through a CommonJS require) for its asynchronous
      // API, which nothing here uses; its browser build is the same synchronous code without it.
      name: 'lazy-fflate',
      setup(build) {
        const lazy = fileURLToPath(new URL('src/lazy-fflate.ts', import.meta.url));
        const browser = fileURLToPath(import.meta.resolve('fflate')).replace(
          /index\.mjs$/,
          'browser.js',
        );
        build.onResolve({ filter: /^fflate$/ }, ({ importer }) => ({
          path: importer.endsWith('fflate-parts.ts') ? browser : lazy,
        }));
      },
    },
  ],
  // undici is CommonJS and requires Node's modules; ES modules have no `require` of their own.
  banner: {
    js: "import { createRequire as __placeportRequire } from 'node:module';\nconst require = __placeportRequire(import.meta.url);",
  },
});
await build({
  ...common,
  entryPoints: { placeport: 'src/bin.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  plugins: [
    {
      // The run is the other bundle, imported as it is (an ES module) when a command needs it.
      name: 'run-bundle',
      setup(build) {
        build.onResolve({ filter: /^\.\/main\.js$/ }, () => ({
          path: './main.js',
          external: true,
        }));
      },
    },
  ],
});
