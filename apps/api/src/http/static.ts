import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from './errors.js';

/** Vite's hashed build output may be cached for a year; everything else is revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function apiNotFound(method: string, url: string): ErrorBody {
  const path = url.split('?')[0] ?? url;
  return { error: { code: 'not_found', message: `There is no ${method} ${path}.` } };
}

/**
 * Unknown paths: JSON 404 in the API's error shape under `/api` (and for non-GET requests); with a
 * built web app, every other GET answers `index.html`, so the single-page app renders its own
 * "404 Page Not Found" screen for paths it does not know.
 */
export async function installStaticAndFallback(
  app: FastifyInstance,
  webDist: string | undefined,
): Promise<void> {
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    const isApi =
      request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (webDist && isPage && !isApi) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });
}
