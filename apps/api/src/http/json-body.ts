import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

/**
 * The deepest a JSON request body may nest arrays and objects. Every route's body is an object of
 * strings, numbers and one array of strings (depth 2); the rest is room, not use.
 */
export const MAX_JSON_DEPTH = 8;

/**
 * Whether `text` nests arrays or objects deeper than `max`, in one pass that skips strings (and
 * their escaped quotes). Linear, and stops at the first level too deep.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92) i += 1;
      else if (code === 34) inString = false;
    } else if (code === 34) {
      inString = true;
    } else if (code === 91 || code === 123) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 93 || code === 125) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), after a depth check: a body of
 * a few MB nested hundreds of thousands deep took `JSON.parse` about 200 ms on the event loop before
 * validation refused it, so one client sending five a second (well within the resolve route's
 * rate limit) held every other request up. Past {@link MAX_JSON_DEPTH} it is refused unparsed,
 * 400 `invalid_json`. Each route's own body limit still applies first.
 */
export function installJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new ApiError(400, 'invalid_json', 'The request body nests too deeply.'), undefined);
      return;
    }
    parse(request, text, done);
  });
}
