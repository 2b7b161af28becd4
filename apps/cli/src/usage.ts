/** The command line of `placeport`: parsed and checked before anything is read or fetched. */
import { parseArgs } from 'node:util';
import { isOutputFormat, OUTPUT_FORMATS, type OutputFormat } from '@placeport/contract';
import { defaultCacheFile, EnvironmentError, type CliEnvironment, type Machine } from './config.js';
import { helpText } from './help.js';
import packageJson from '../package.json' with { type: 'json' };

/** Wrong usage: the message is printed with a pointer to `--help`, and the exit code is 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** How links without coordinates are looked up. */
export type LookupMode =
  | { kind: 'local'; googleMapsApiKey: string | undefined }
  | { kind: 'offline' }
  | { kind: 'api'; apiBase: string };

/** A `convert` command, checked. */
export interface ConvertCommand {
  kind: 'convert';
  /**
   * A Takeout archive (`.zip`, or `.tgz` when Takeout was asked for that file type), or a
   * failed-places CSV of an earlier run to retry.
   */
  archive: string;
  out: string;
  /** File formats to write, in order, without repeats (default `kml`). */
  formats: OutputFormat[];
  /** Lists to convert by name or path; empty means every list. */
  lists: string[];
  json: boolean;
  /**
   * Replace files already in the output folder (regular files and symbolic links, the links
   * themselves, never what they point to; never folders). Without it such files stop the run.
   */
  force: boolean;
  lookups: LookupMode;
  /** The cache file of local lookups, or undefined for none (`--no-cache`, `--offline`, `--api`). */
  cacheFile: string | undefined;
}

export type Command = { kind: 'help'; toStdout: boolean } | { kind: 'version' } | ConvertCommand;

/** What a conversion's command line looks like, for the refusal of one that is not. */
const CONVERT_USAGE =
  'expected "convert <archive.zip | archive.tgz | failed-places.csv> --out <dir>"';

/**
 * Node's own words for an option `parseArgs` refused, as a sentence naming the option (its text
 * suggests a `--` whose quote it never closes, and speaks of arguments rather than values).
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const option = /'(-[^' ]*)/.exec(message)?.[1];
  if (!option) return message;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `${option} is not an option of placeport`;
  if (code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return message;
  if (message.includes('does not take an argument')) return `${option} takes no value`;
  // `--out --json`: the next word is taken for another option, not for --out's value.
  if (message.includes('is ambiguous')) {
    return `${option} needs a value (for one that starts with "-", write ${option}=<value>)`;
  }
  return `${option} needs a value`;
}

/** The form Google Maps Platform keys take (as the API checks `GOOGLE_MAPS_API_KEY`). */
const API_KEY = /^[A-Za-z0-9_-]{8,200}$/;

/**
 * The ports the Fetch standard's "bad port" list names (kept for mail, FTP, IRC, X11…): Node's
 * fetch never connects to them, so an API listening on one could only be "unreachable".
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/**
 * `--api`, checked: an http(s) URL of the API's root (it serves `/api/…` there), with no path, query
 * or fragment, and no user name or password, which the API takes none of (refused without being
 * echoed), on a port fetch connects to. Throws {@link UsageError}.
 */
function checkApiBase(value: string): string {
  const url = /^https?:\/\/[^/]+/i.test(value) && URL.canParse(value) ? new URL(value) : undefined;
  if (!url) throw new UsageError('--api must be an http(s) base URL, e.g. http://127.0.0.1:8080');
  if (url.port && BAD_PORTS.has(Number(url.port))) {
    throw new UsageError(
      `--api port ${url.port} is one fetch never connects to (kept for other services by the Fetch standard): run the PlacePort API on another port, such as 8080`,
    );
  }
  if (url.username || url.password) {
    throw new UsageError(
      '--api must not hold a user name or password (the PlacePort API takes none); give http(s)://host:port only',
    );
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new UsageError(
      `--api must be the API's root, without a path, query or fragment (it serves /api/… there), e.g. ${url.origin}`,
    );
  }
  return value;
}

/** The options that take one value: given twice, the run is refused rather than one dropped. */
const SINGLE_VALUE_OPTIONS = ['out', 'api', 'google-maps-api-key', 'cache-file'] as const;

/**
 * Parses `argv` (without `node` and the script). `defaultCacheFile` is used unless `--cache-file`
 * or `--no-cache` says otherwise. Throws {@link UsageError}.
 */
export function parseCommandLine(
  argv: readonly string[],
  env: Pick<CliEnvironment, 'googleMapsApiKey'>,
  defaultCacheFile: string,
): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        out: { type: 'string' },
        list: { type: 'string', multiple: true },
        format: { type: 'string', multiple: true },
        api: { type: 'string' },
        offline: { type: 'boolean', default: false },
        'google-maps-api-key': { type: 'string' },
        'cache-file': { type: 'string' },
        'no-cache': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(parseProblem(error));
  }
  const { values, positionals, tokens } = parsed;
  if (values.help) return { kind: 'help', toStdout: true };
  // An option of one value given twice: the last would win without a word (--out a --out b).
  for (const name of SINGLE_VALUE_OPTIONS) {
    const given = tokens.filter((token) => token.kind === 'option' && token.name === name);
    if (given.length > 1)
      throw new UsageError(`--${name} was given ${given.length} times: give it once`);
  }
  if (values.version) return { kind: 'version' };
  if (positionals.length === 0) return { kind: 'help', toStdout: false };
  const [command, archive, ...rest] = positionals;
  if (command !== 'convert' || !archive || rest.length > 0 || !values.out) {
    throw new UsageError(CONVERT_USAGE);
  }
  const formats: OutputFormat[] = [];
  for (const format of values.format ?? ['kml']) {
    const name = format.trim().toLowerCase();
    if (!isOutputFormat(name)) {
      throw new UsageError(
        `--format must be one of ${OUTPUT_FORMATS.join(', ')} (got "${format}")`,
      );
    }
    if (!formats.includes(name)) formats.push(name);
  }

  const flagKey = values['google-maps-api-key'];
  if (values.offline && values.api !== undefined) {
    throw new UsageError('--offline and --api cannot be used together: choose one');
  }
  if (flagKey !== undefined && (values.offline || values.api !== undefined)) {
    throw new UsageError(
      `--google-maps-api-key is for lookups from this computer; it does nothing with ${values.offline ? '--offline' : '--api'}`,
    );
  }
  if (values['cache-file'] !== undefined && (values.offline || values.api !== undefined)) {
    throw new UsageError(
      `--cache-file is for lookups from this computer; it does nothing with ${values.offline ? '--offline' : '--api'}`,
    );
  }
  if (values['no-cache'] && values['cache-file'] !== undefined) {
    throw new UsageError('--cache-file and --no-cache cannot be used together');
  }

  let lookups: LookupMode;
  if (values.offline) lookups = { kind: 'offline' };
  else if (values.api !== undefined) {
    lookups = { kind: 'api', apiBase: checkApiBase(values.api) };
  } else {
    const key = flagKey ?? env.googleMapsApiKey;
    if (key !== undefined && !API_KEY.test(key)) {
      throw new UsageError(
        `${flagKey !== undefined ? '--google-maps-api-key' : 'GOOGLE_MAPS_API_KEY'} must be a Google Maps Platform API key`,
      );
    }
    lookups = { kind: 'local', googleMapsApiKey: key };
  }

  const cacheFile =
    lookups.kind !== 'local' || values['no-cache']
      ? undefined
      : (values['cache-file'] ?? defaultCacheFile);
  if (cacheFile !== undefined && cacheFile.trim() === '') {
    throw new UsageError('--cache-file needs a path');
  }

  return {
    kind: 'convert',
    archive,
    out: values.out,
    formats,
    lists: values.list ?? [],
    json: values.json,
    force: values.force,
    lookups,
    cacheFile,
  };
}

/** Where the command line's answers go: whole lines to stdout and to stderr. */
export interface Printer {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** What a command line comes to before any file is read: an exit code, or a conversion to run. */
export type Start<M extends Machine> =
  { kind: 'exit'; code: number } | { kind: 'convert'; command: ConvertCommand; machine: M };

/** The version of this `placeport`, as `--version` prints it. */
export const VERSION = packageJson.version;

/**
 * A failure as `--json` prints it on stdout, `{"error":{"code","message"}}`, the one shape every
 * failure of a run with `--json` takes (`usage` for wrong usage, else the converter's code).
 */
export function jsonError(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** Whether `--json` is among the options (not after `--`), even when the command line is wrong. */
function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** The line printed for wrong usage (exit 2). */
export function usageProblem(error: UsageError | EnvironmentError): string {
  return `placeport: ${error.message}\nRun "placeport --help" for the options.`;
}

/**
 * Reads the machine and the command line, and answers what needs no conversion: `--help` (exit 0,
 * on stdout), `--version` (exit 0), no command (exit 2, the help on stderr), wrong usage or a bad
 * environment setting (exit 2, {@link usageProblem}; with `--json` among the arguments, also
 * {@link jsonError} on stdout). Needs none of the conversion's code, so the process entry answers
 * these without loading it. Other errors are thrown.
 */
export function startCommand<M extends Machine>(
  argv: readonly string[],
  print: Printer,
  machine: () => M,
): Start<M> {
  let context: M;
  let cacheFile: string;
  let command: Command;
  try {
    context = machine();
    cacheFile = defaultCacheFile(context);
    command = parseCommandLine(argv, context.env, cacheFile);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof EnvironmentError)) throw error;
    if (asksForJson(argv)) print.stdout(jsonError('usage', error.message));
    print.stderr(usageProblem(error));
    return { kind: 'exit', code: 2 };
  }
  if (command.kind === 'convert') return { kind: 'convert', command, machine: context };
  if (command.kind === 'version') {
    print.stdout(VERSION);
    return { kind: 'exit', code: 0 };
  }
  if (!command.toStdout && asksForJson(argv)) print.stdout(jsonError('usage', CONVERT_USAGE));
  (command.toStdout ? print.stdout : print.stderr)(helpText(cacheFile));
  return { kind: 'exit', code: command.toStdout ? 0 : 2 };
}
