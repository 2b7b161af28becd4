import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorAnswer } from '@placeport/contract/routes';

/** Vite's hashed build output may be cached for a year; everything else is revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The app shell answering an unknown path: never kept by a browser or a proxy, so a page added
 * later (or a new build's shell, naming new hashed assets) is never hidden behind an old 404.
 */
const NOT_FOUND_CACHE = 'no-store';

/** A source map of the build (`index-abc.js.map`), whatever its case. */
function isSourceMap(path: string): boolean {
  return path.toLowerCase().endsWith('.map');
}

function apiNotFound(method: string, url: string): ErrorAnswer {
  const path = url.split('?')[0] ?? url;
  return { error: { code: 'not_found', message: `There is no ${method} ${path}.` } };
}

/**
 * Static files and unknown paths. With a built web app, its files are served at `/` (`/` and
 * `/index.html` answer the converter page). Unknown paths: JSON 404 in the API's error shape under
 * `/api` (and for requests other than GET and HEAD); with a built web app, every other GET
 * answers **404** with `index.html`, whose single-page app renders its "404 Page Not Found"
 * screen for any path but `/` and `/index.html` (apps/web `isConverterPath`), so crawlers and
 * tools see the status the person sees.
 */
export async function installStaticAndFallback(
  app: FastifyInstance,
  webDist: string | undefined,
): Promise<void> {
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      // The build writes each text file also as .br and .gz (apps/web vite.config.ts): a browser
      // that accepts one gets it, with Vary: accept-encoding; a build without them is served as is.
      preCompressed: true,
      // The build's source maps are for whoever runs the site, named by no file: not published.
      allowedPath: (path) => !isSourceMap(path),
      setHeaders: (reply, path) => {
        // Vite's hashed files are those in the build's own assets/ folder; the folder the build
        // lives in may itself be called assets (/srv/assets/placeport/dist), and its shell must
        // not be kept a year.
        const hashed = relative(webDist, path).split(sep)[0] === 'assets';
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  }
  const shell = webDist ? join(webDist, 'index.html') : undefined;
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    const isApi =
      request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (shell && isPage && !isApi) {
      // Read each time (it is small): a rebuilt web app is answered without a restart.
      return reply
        .status(404)
        .header('cache-control', NOT_FOUND_CACHE)
        .type('text/html; charset=utf-8')
        .send(await readFile(shell));
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });
}
