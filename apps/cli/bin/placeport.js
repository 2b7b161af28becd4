#!/usr/bin/env node
// Thin launcher: the CLI itself is bundled into dist/placeport.js by `pnpm build`.
import('../dist/placeport.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
    console.error(
      'placeport: the command-line tool is not built yet. Run the README setup (or `pnpm build`) first.',
    );
    process.exit(2);
  }
  throw error;
});
