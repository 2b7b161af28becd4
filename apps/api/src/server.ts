import { buildApp } from './app.js';
import { loadSettings, misspeltSettings, SETTING_NAMES, SettingsError } from './config.js';
import { REACHABLE_DEMO_MAX_PLACES } from '@placeport/contract';

/** Hosts that listen on every address of the machine. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0']);

/** How long in-flight requests get to finish on SIGINT/SIGTERM before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** What `--help` prints: the API takes no arguments, its settings are environment variables. */
export const USAGE = `Usage: node dist/server.js   (from apps/api; or pnpm start at the repository's root)

Starts the PlacePort API: payments, place lookups, and the built web app.
It takes no arguments. Its settings are environment variables:
  ${SETTING_NAMES.join('\n  ')}
What each does and its default: apps/api/README.md, "Settings (environment)".
With none set it serves demo payments on http://127.0.0.1:8080.
`;

/** Starts the API from the environment: listens, logs where, and closes gracefully on a signal. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.length > 0) {
    process.stderr.write(
      `PlacePort API takes no arguments (${args.join(' ')}): its settings are environment variables. See --help.\n`,
    );
    process.exitCode = 2;
    return;
  }
  const settings = loadSettings();
  const app = await buildApp({
    settings,
    logger: { level: settings.logLevel },
    settlement: { auto: true },
  });
  const address = await app.listen({ host: settings.host, port: settings.port });
  // For a wildcard host Fastify answers with one local address (127.0.0.1): say what is exposed.
  const everywhere = WILDCARD_HOSTS.has(settings.host)
    ? ` and on every other address of this machine (HOST=${settings.host})`
    : '';
  app.log.info(
    {
      host: settings.host,
      payments: settings.stripe ? 'stripe' : 'demo',
      placesApi: settings.googleMapsApiKey ? 'on' : 'off',
      webApp: settings.webDist ?? 'not built',
    },
    `PlacePort API listening on ${address}${everywhere}`,
  );
  for (const { given, meant } of misspeltSettings()) {
    app.log.warn(
      { setting: given },
      `${given} is not a setting and is ignored: did you mean ${meant}?`,
    );
  }
  if (settings.demoPayments === 'reachable') {
    app.log.warn(
      {
        host: settings.host,
        trustProxy: settings.trustProxy,
        maxPlaces: REACHABLE_DEMO_MAX_PLACES,
      },
      `DEMO_PAYMENTS=on: demo payments are served where other machines can reach them; no card is charged, anyone can authorize lookups, and a demo payment covers at most ${REACHABLE_DEMO_MAX_PLACES.toLocaleString('en-US')} places`,
    );
  }
  if (!settings.payerCookieSecretSet) {
    app.log.info(
      settings.stripe
        ? 'PAYER_COOKIE_SECRET is not set: payer cookies are signed with a key derived from STRIPE_SECRET_KEY'
        : 'PAYER_COOKIE_SECRET is not set: payer cookies are signed with a key of this process only',
    );
  }

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    error instanceof SettingsError
      ? `PlacePort API cannot start.\n${message}\n`
      : `PlacePort API failed to start: ${message}\n`,
  );
  process.exit(1);
});
