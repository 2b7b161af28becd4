/**
 * `placeport`: converts a Google Takeout archive to KML files from the command line, looking up
 * links without coordinates from the user's own computer (or through a PlacePort API).
 * Exit codes: 0 every list read, 1 bad input, 2 wrong usage.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  ConverterError,
  convertLists,
  countCoordinateSources,
  FAILED_CSV_SUFFIX,
  parseList,
  readArchive,
  type InspectedList,
  type PipelineOptions,
} from '@placeport/converter/internal';
import { createResolver, MemoryPlaceCache } from '@placeport/resolver';
import { createPublicFetch } from '@placeport/resolver/node';
import { defaultCacheFile, loadCacheFile, saveCacheFile } from './cache-file.js';
import { EnvironmentError, readEnvironment, type CliEnvironment } from './config.js';
import { helpText } from './help.js';
import { apiLookups, countLookups, emptyStats, localLookups, type Lookups } from './lookups.js';
import { createProgressLine, type ProgressLine } from './progress.js';
import { formatSummary, summarize, type CacheSummary } from './summary.js';
import { parseCommandLine, pickLists, UsageError, type ConvertCommand } from './usage.js';

/** Links per request to a PlacePort API: its free tier answers 402 past 4 links in one request. */
export const API_CHUNK_SIZE = 4;
/**
 * Links per batch handed to the local resolver: small enough that a batch finishes well within the
 * resolver's per-batch deadline on a slow connection, large enough to keep its slots busy.
 */
export const LOCAL_CHUNK_SIZE = 100;

/** Where the CLI writes: stdout (summary), stderr (messages), and the progress line when stderr is a terminal. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Raw writes to a terminal's stderr for the progress line; absent when stderr is not a TTY. */
  progress?: (text: string) => void;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  ...(process.stderr.isTTY ? { progress: (text: string) => process.stderr.write(text) } : {}),
};

/** What the CLI needs from the machine; tests pass their own. */
export interface CliContext {
  env: CliEnvironment;
  platform: NodeJS.Platform;
  homedir: string;
}

function machineContext(): CliContext {
  return { env: readEnvironment(), platform: process.platform, homedir: homedir() };
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function runCli(
  argv: readonly string[],
  io: CliIo = defaultIo,
  context?: CliContext,
): Promise<number> {
  let command;
  let cacheFile: string;
  try {
    const machine = context ?? machineContext();
    cacheFile = defaultCacheFile(machine);
    command = parseCommandLine(argv, machine.env, cacheFile);
    if (command.kind === 'convert') return await convert(command, io, machine.env);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof EnvironmentError)) throw error;
    io.stderr(`placeport: ${error.message}\nRun "placeport --help" for the options.`);
    return 2;
  }
  (command.toStdout ? io.stdout : io.stderr)(helpText(cacheFile));
  return command.toStdout ? 0 : 2;
}

/** What the CLI reads: a Takeout archive, or a failed-places CSV of an earlier run to retry. */
const INPUT_MESSAGE =
  'Give a ZIP file from Google Takeout with your saved places, or a failed-places CSV to retry.';

/**
 * A failed-places CSV (or any saved-list CSV) as a list of its own. Its files are named after the
 * list it came from: `Want to go - failed-places.csv` writes `Want to go.kml` (and, for places that
 * fail again, a new `Want to go - failed-places.csv`).
 */
function csvInput(file: string, content: string): InspectedList {
  const fileName = path.basename(file);
  const name = fileName.replace(/\.csv$/i, '');
  const parsed = parseList(content);
  if (parsed instanceof ConverterError) throw parsed;
  // The failed-places CSV put a `'` before cells a spreadsheet would run as a formula; take it off.
  for (const place of parsed.places) {
    place.title = unescapeFormula(place.title);
    if (place.note) place.note = unescapeFormula(place.note);
    if (place.comment) place.comment = unescapeFormula(place.comment);
  }
  const outputName = name.endsWith(FAILED_CSV_SUFFIX)
    ? name.slice(0, -FAILED_CSV_SUFFIX.length) || name
    : name;
  return {
    path: fileName,
    name,
    kind: 'csv',
    outputName,
    content,
    size: Buffer.byteLength(content),
    rowCount: parsed.places.length,
    ...countCoordinateSources(parsed.places),
    parsed,
  };
}

function unescapeFormula(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** Reads the input and picks the lists asked for; throws ConverterError with the seed's messages. */
async function readLists(command: ConvertCommand): Promise<InspectedList[]> {
  const isZip = /\.zip$/i.test(command.archive);
  const isCsv = /\.csv$/i.test(command.archive);
  if (!isZip && !isCsv) throw new ConverterError('not-a-zip', INPUT_MESSAGE);
  const bytes = await readFile(command.archive).catch((error: NodeJS.ErrnoException) => {
    throw new ConverterError(
      'extract-failed',
      error.code === 'ENOENT'
        ? `File not found: ${command.archive}`
        : `Could not read ${command.archive}.`,
    );
  });
  const lists = isZip
    ? readArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    : [csvInput(command.archive, bytes.toString('utf8'))];
  return command.lists.length === 0 ? lists : pickLists(lists, command.lists);
}

/** The local resolver and its cache, restored from the cache file when there is one. */
async function localSetup(
  command: ConvertCommand & { lookups: { kind: 'local' } },
  env: CliEnvironment,
  io: CliIo,
) {
  const cache = new MemoryPlaceCache();
  let loaded = 0;
  let damaged = false;
  if (command.cacheFile) {
    const outcome = await loadCacheFile(command.cacheFile, cache);
    if (outcome.kind === 'loaded') loaded = outcome.entries;
    if (outcome.kind === 'unreadable') {
      damaged = true;
      io.stderr(
        `placeport: warning: the cache file ${command.cacheFile} could not be read (${outcome.reason}); starting with an empty cache. It is replaced at the end of this run.`,
      );
    }
  }
  // The test-only origins are fakes on loopback, which the public-only fetch rightly refuses.
  const overridden = env.mapsOrigin !== undefined || env.placesApiOrigin !== undefined;
  const resolver = createResolver({
    fetch: overridden ? globalThis.fetch : createPublicFetch(),
    mapsOrigin: env.mapsOrigin,
    ...(env.placesApiOrigin ? { placesOrigin: env.placesApiOrigin } : {}),
    googleMapsApiKey: command.lookups.googleMapsApiKey,
    cache,
  });
  return { cache, loaded, damaged, resolver };
}

/** Writes every file of the run into `outDir`; returns the paths written per list. */
async function writeOutputs(
  results: Awaited<ReturnType<typeof convertLists>>,
  outDir: string,
): Promise<Map<string, string[]>> {
  await mkdir(outDir, { recursive: true });
  const written = new Map<string, string[]>();
  const taken = new Set<string>();
  for (const result of results) {
    const files: string[] = [];
    for (const part of result.files) {
      files.push(await writeUnique(taken, outDir, part.fileName, part.data));
    }
    if (result.failedCsvContent && result.failedCsvFileName) {
      files.push(
        await writeUnique(taken, outDir, result.failedCsvFileName, result.failedCsvContent),
      );
    }
    written.set(result.path, files);
  }
  return written;
}

async function convert(command: ConvertCommand, io: CliIo, env: CliEnvironment): Promise<number> {
  let progress: ProgressLine | undefined;
  try {
    const chosen = await readLists(command);
    const expected = command.lookups.kind === 'offline' ? 0 : countLookups(chosen);
    progress = io.progress ? createProgressLine(io.progress) : undefined;
    const onProgress = progress ? progress.update.bind(progress) : undefined;
    const lookupOptions = { expected, ...(onProgress ? { onProgress } : {}) };

    // Offline, the pipeline gets no resolveUrls and gives such places `not_looked_up`.
    let lookups: Lookups | undefined;
    let local: Awaited<ReturnType<typeof localSetup>> | undefined;
    if (command.lookups.kind === 'api') {
      lookups = apiLookups(command.lookups.apiBase, lookupOptions);
    } else if (command.lookups.kind === 'local') {
      local = await localSetup({ ...command, lookups: command.lookups }, env, io);
      lookups = localLookups(local.resolver, lookupOptions);
    }
    const pipeline: PipelineOptions = {
      logger: { warn: () => {} },
      formats: command.formats,
      ...(lookups
        ? {
            resolveUrls: lookups.resolveUrls,
            resolveChunkSize: command.lookups.kind === 'api' ? API_CHUNK_SIZE : LOCAL_CHUNK_SIZE,
          }
        : {}),
    };

    const results = await convertLists(chosen, pipeline);
    progress?.finish();
    progress = undefined;

    let cache: CacheSummary | null = null;
    if (local && command.cacheFile) {
      cache = { file: command.cacheFile, loaded: local.loaded, saved: null };
      // Written when something was looked up, or to replace a damaged file; else left as it is.
      const changed = (lookups?.stats.links ?? 0) > 0 || local.damaged;
      if (changed) {
        try {
          cache.saved = await saveCacheFile(command.cacheFile, local.cache);
        } catch (error) {
          io.stderr(
            `placeport: warning: the cache file ${command.cacheFile} could not be saved (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
          );
        }
      }
    }

    const outDir = path.resolve(command.out);
    const written = await writeOutputs(results, outDir);
    const summary = summarize(results, written, {
      outDir,
      lookups: {
        ...(lookups?.stats ?? emptyStats('offline')),
        ...(command.lookups.kind === 'api' ? { api: command.lookups.apiBase } : {}),
      },
      cache,
    });
    io.stdout(command.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
    const unread = summary.lists.filter((list) => list.skippedReason);
    for (const list of unread) io.stderr(`placeport: ${list.name}: ${list.skippedReason}`);
    return unread.length > 0 ? 1 : 0;
  } catch (error) {
    progress?.finish();
    // An ambiguous --list is wrong usage (exit 2), found only once the archive is read.
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (command.json) {
      io.stdout(
        JSON.stringify({
          error: { code: error instanceof ConverterError ? error.code : 'unexpected', message },
        }),
      );
    }
    io.stderr(`placeport: ${message}`);
    return 1;
  }
}

/** Writes a file without overwriting one written earlier in this run (lists' names repeat across folders). */
async function writeUnique(
  taken: Set<string>,
  dir: string,
  fileName: string,
  content: string | Uint8Array,
): Promise<string> {
  const ext = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  let candidate = fileName;
  for (let n = 2; taken.has(path.join(dir, candidate)); n += 1) candidate = `${stem} (${n})${ext}`;
  const target = path.join(dir, candidate);
  taken.add(target);
  await (typeof content === 'string'
    ? writeFile(target, content, 'utf8')
    : writeFile(target, content));
  return target;
}
