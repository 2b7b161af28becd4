#!/usr/bin/env node
// Thin launcher: the CLI itself is bundled into dist/ by `pnpm build` (see build.mjs). CommonJS, as
// dist/placeport.cjs is, so `--help` never starts Node's ES module loader.
let entry;
try {
  entry = require.resolve('../dist/placeport.cjs');
} catch {
  console.error(
    'placeport: the command-line tool is not built yet. Run the README setup (or `pnpm build`) first.',
  );
  process.exit(2);
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS launcher
require(entry);
