/**
 * Node module hooks for `main-entry-imports.test.ts`: every import Node resolves, appended to a file
 * as one JSON line (`specifier`, `parent`, `url`), so a test can see what loading an entry pulls in.
 */
import { appendFileSync } from 'node:fs';

let file = '';

/** Receives the file to write from `module.register(…, { data: { file } })`. */
export function initialize(data) {
  file = data.file;
}

/** Resolves as Node would, and records what was resolved. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(
    file,
    `${JSON.stringify({ specifier, parent: context.parentURL, url: resolved.url })}\n`,
  );
  return resolved;
}
