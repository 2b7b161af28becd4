/**
 * `placeport`: converts a Google Takeout archive to KML files from the command line, looking up
 * links without coordinates from the user's own computer (or through a PlacePort API).
 * Exit codes ({@link EXIT}): 0 every list read and written, 1 bad input or files not written, 2
 * wrong usage or files already in the output folder (nothing written), 3 Google (or the API) could
 * not be reached, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (what was found is written).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { FREE_TIER_MAX_URLS } from '@placeport/contract';
import {
  ConverterError,
  convertArchive,
  inspectArchive,
  inspectCsv,
  LIMITS,
  MESSAGES,
  type ConversionOptions,
  type Limits,
  type ConversionProgress,
  type InspectedList,
} from '@placeport/converter';
import {
  anotherPartSentence,
  checkPartSize,
  decodeCsvFile,
  FAILED_CSV_SUFFIX,
  inspectZipContents,
  pickLists,
  sameListName,
  readsByRanges,
  Repack,
  takeoutPartOf,
  type ListEntry,
  type ZipContents,
} from '@placeport/converter/internal';
import {
  printable,
  processPrinter,
  readMachine,
  writeOut,
  type CliEnvironment,
  type Machine,
} from './config.js';
import { releaseBytes, zlibCrc32, zlibInflate } from './inflate.js';
import {
  apiFetch,
  apiLookups,
  emptyStats,
  openLocalLookups,
  proxyOfRun,
  type LocalLookups,
  type Lookups,
} from './lookups.js';
import {
  existingBeforeRun,
  existingMessage,
  outFolderProblem,
  planOutputs,
  retryInput,
  writePlans,
  type ExistingEntry,
  type RetryInput,
} from './outputs.js';
import {
  createProgressLine,
  formatProgress,
  formatReading,
  SHOW_READING_BYTES,
  type ProgressLine,
  type ProgressState,
} from './progress.js';
import { errnoText, FOLDER_LIMITS, readFolderLists } from './folder-archive.js';
import {
  archiveKindOf,
  checkTarSize,
  readTarLists,
  tarKindOf,
  tarName,
  type TarKind,
} from './tar-archive.js';
import { readLargeZipFile } from './zip-file.js';
import {
  apiProblemSentences,
  formatSummary,
  summarize,
  unreachableSentence,
  type CacheSummary,
  type CliSummary,
} from './summary.js';
import { jsonError, startCommand, usageProblem, UsageError, type ConvertCommand } from './usage.js';

/** Links per request to a PlacePort API: its free tier answers 402 past that many in one request. */
export const API_CHUNK_SIZE = FREE_TIER_MAX_URLS;
/**
 * Links per batch handed to the local resolver: small enough that a batch finishes well within the
 * resolver's per-batch deadline on a slow connection, large enough to keep its slots busy.
 */
export const LOCAL_CHUNK_SIZE = 100;

/** The exit codes (README, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** Bad input, or files that could not be written. */
  failed: 1,
  /** Wrong usage, or files already in the output folder (nothing written). */
  usage: 2,
  /** Google (or the PlacePort API) could not be reached: the run stopped looking up. */
  unreachable: 3,
  /** Stopped by Ctrl-C (128 + SIGINT's number, as shells report it). */
  SIGINT: 130,
  /** Stopped by SIGTERM (128 + 15). */
  SIGTERM: 143,
  /** Stopped by SIGHUP (128 + 1): the terminal closed, an ssh session was lost. */
  SIGHUP: 129,
} as const;

/** The signals that stop a run, keeping its work. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Where the CLI writes: stdout (summary), stderr (messages), and the lookups' progress on stderr. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Raw writes to a terminal's stderr for the progress line; absent when stderr is not a TTY. */
  progress?: (text: string) => void;
  /** The terminal's width, which the progress line is cut to. */
  progressColumns?: () => number | undefined;
  /** Whole progress lines now and then, when stderr is not a terminal (a pipe, a log). */
  progressLog?: (text: string) => void;
}

const defaultIo: CliIo = {
  ...processPrinter,
  ...(process.stderr.isTTY
    ? {
        progress: (text: string) => writeOut(process.stderr, text),
        progressColumns: () => process.stderr.columns,
      }
    : { progressLog: (text: string) => writeOut(process.stderr, text) }),
};

/**
 * How a run hears that it should stop: `listen` calls back on the first SIGINT, SIGTERM or SIGHUP
 * (the run then stops looking up and writes what it has), and returns a function that stops
 * listening.
 */
export interface Interrupts {
  listen(onStop: (signal: StopSignal) => void): () => void;
}

/**
 * The process's own signals. The first stops the lookups and lets the run write its work; a second
 * ends the process at once (Ctrl-C twice), with the code of that signal.
 */
export const processInterrupts: Interrupts = {
  listen(onStop) {
    let stopping = false;
    const stopListening = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
      const handle = () => {
        if (stopping) process.exit(EXIT[signal]);
        stopping = true;
        onStop(signal);
      };
      process.on(signal, handle);
      return () => process.off(signal, handle);
    });
    return () => stopListening.forEach((stop) => stop());
  },
};

/** What the CLI needs from the machine; tests pass their own. */
export interface CliContext extends Machine {
  /** Default: the process's SIGINT, SIGTERM and SIGHUP. */
  interrupts?: Interrupts;
}

/**
 * `io` with every message on stderr made {@link printable}: messages quote what an archive holds.
 * Stdout is the summary: made printable where it is text, left to JSON's own escaping with
 * `--json`.
 */
function terminalSafe(io: CliIo): CliIo {
  return { ...io, stderr: (text) => io.stderr(printable(text)) };
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function runCli(
  argv: readonly string[],
  output: CliIo = defaultIo,
  context?: CliContext,
): Promise<number> {
  const start = startCommand<CliContext>(
    argv,
    terminalSafe(output),
    () => context ?? readMachine(),
  );
  // runCommand makes its own messages printable: `output` as given, not wrapped twice.
  return start.kind === 'exit' ? start.code : runCommand(start.command, start.machine, output);
}

/** Runs a conversion {@link startCommand} has read; resolves to the exit code. */
export async function runCommand(
  command: ConvertCommand,
  machine: CliContext,
  output: CliIo = defaultIo,
): Promise<number> {
  const io = terminalSafe(output);
  try {
    return await convert(command, io, machine.env, machine.interrupts ?? processInterrupts);
  } catch (error) {
    // An ambiguous --list, an unusable output folder or cache file is wrong usage, found once
    // reading starts.
    if (!(error instanceof UsageError)) throw error;
    if (command.json) io.stdout(jsonError('usage', error.message));
    io.stderr(usageProblem(error));
    return EXIT.usage;
  }
}

/** What the CLI reads: a Takeout archive, or a failed-places CSV of an earlier run to retry. */
const INPUT_MESSAGE =
  'Give a ZIP (or .tgz) file from Google Takeout with your saved places, or a failed-places CSV to retry.';

/**
 * The lists `--list` names, in that order, each once (a list named twice, by its name and by its
 * path, is converted once): each by its path in the archive, else the one list with that name.
 * Names repeat across folders (product.md), so a name that several lists share is wrong usage,
 * refused with their paths, any of which selects exactly. A name that matches nothing is bad input
 * (ConverterError `unknown-list`).
 */
function pickListsOrRefuse<T extends { path: string; name: string }>(
  lists: readonly T[],
  wanted: readonly string[],
): T[] {
  try {
    const picked = pickLists(lists, wanted);
    return [...new Map(picked.map((list) => [list.path, list])).values()];
  } catch (error) {
    if (!(error instanceof ConverterError) || error.code !== 'ambiguous-list') throw error;
    // The same name whatever its Unicode form, as pickLists compares them.
    const sharing = (want: string) => lists.filter((list) => sameListName(list.name, want));
    const name = wanted.find((want) => sharing(want).length > 1)!;
    const named = sharing(name);
    throw new UsageError(
      `--list "${name}" names ${named.length} lists in this archive; give its path instead:\n${named.map((list) => `  ${list.path}`).join('\n')}`,
    );
  }
}

/** The most list names {@link pastCapMessage} gives. */
const NAMED_LISTS = 8;

/**
 * An archive of several lists past the place cap, as the command can convert it: some of its
 * lists at a time with `--list` (`chosen`: the lists chosen were past it), naming a few of them.
 */
function pastCapMessage(lists: readonly ListEntry[], chosen: boolean): string {
  const max = LIMITS.maxPlaces.toLocaleString('en-US');
  const names = [...new Set(lists.map((list) => list.name))];
  const shown = names.slice(0, NAMED_LISTS).map((name) => `"${name}"`);
  const more = names.length > NAMED_LISTS ? ` and ${names.length - NAMED_LISTS} more` : '';
  return chosen
    ? `The lists chosen hold more than ${max} places, the most placeport converts at once. Choose fewer with --list, and convert the others in another run.`
    : `This archive holds more than ${max} places, the most placeport converts at once. Convert some of its ${lists.length} lists at a time with --list (${shown.join(', ')}${more}), and the others in another run.`;
}

/**
 * The text of a CSV given on its own, in the encoding it was saved in (`decodeCsvFile`): a
 * failed-places CSV edited in Excel comes back in Windows-1252, which is said through `warn` (the
 * file's name may hold anything, so it goes where every message is made printable).
 */
function csvText(bytes: Uint8Array, file: string, warn: (text: string) => void): string {
  const { text, encoding } = decodeCsvFile(bytes);
  if (encoding === 'windows-1252') {
    warn(
      `placeport: ${path.basename(file)} is not UTF-8; it was read as Windows-1252, as Excel saves a CSV.`,
    );
  }
  return text;
}

/**
 * Refuses a CSV given on its own past the converter's limit for the lists of one archive
 * (`maxCsvBytes`), before it is read: Node would hold it several times over while decoding and
 * parsing it, and past a few hundred MB end the process with no word of why.
 */
export function checkCsvSize(
  size: number,
  file: string,
  limits: Pick<Limits, 'maxCsvBytes'> = LIMITS,
): void {
  if (size <= limits.maxCsvBytes) return;
  const megabytes = Math.round(limits.maxCsvBytes / (1024 * 1024));
  throw new ConverterError(
    'archive-too-large',
    `${path.basename(file)} is larger than ${megabytes} MB, far more than a list of saved places holds. Give the ZIP file from Google Takeout (export only "Saved" and "Maps (your places)"), or a failed-places CSV to retry.`,
  );
}

/**
 * How reading the input is followed: `signal` stops a `.tgz` read through (an interrupt), and a
 * `.tgz` past {@link SHOW_READING_BYTES} shows its progress on a line `show` makes.
 */
interface Reading {
  signal: AbortSignal;
  show: (format: (state: ProgressState) => string) => ProgressLine | undefined;
}

/**
 * Reads the input and picks the lists asked for; throws ConverterError with the seed's messages.
 * A failed-places CSV is a retry: its identity is kept, so that file alone may be rewritten.
 */
async function readLists(
  command: ConvertCommand,
  io: CliIo,
  reading: Reading,
): Promise<{ lists: InspectedList[]; retry: RetryInput | undefined; unread: string[] }> {
  // A list (or a folder that may hold lists) that could not be read is skipped, said at once and
  // again in the summary, and fails the run (exit 1): the other lists are still converted.
  const unread: string[] = [];
  const skipped = (text: string) => {
    unread.push(text);
    io.stderr(`placeport: warning: ${text}`);
  };
  // Measured before it is read: a Takeout part of several GB (or a CSV of hundreds of MB) is
  // refused at once, not read for seconds (or refused by Node past 2 GiB with no word of the limit).
  const info = await stat(command.archive).catch((error: NodeJS.ErrnoException) => {
    // Said as it is, whatever the name: a folder mistyped (`~/Downloads/Takout`) is not found,
    // rather than "Give a ZIP…"; a folder above it that may not be searched is said too.
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
      throw new ConverterError('extract-failed', `File not found: ${command.archive}`);
    }
    throw new ConverterError(
      'extract-failed',
      `Could not read ${command.archive}: ${errnoText(error)}.`,
    );
  });
  // A pipe would never end opening, a device never end reading (a link to /dev/zero).
  if (info && !info.isFile() && !info.isDirectory()) {
    throw new ConverterError(
      'not-a-zip',
      `${command.archive} is not a file but a device, a pipe or a socket. ${INPUT_MESSAGE}`,
    );
  }
  // An export already unzipped (Safari unzips downloads by itself) is read as its ZIP would be.
  const isFolder = info?.isDirectory() === true;
  const isCsv = !isFolder && /\.csv$/i.test(command.archive);
  // A ZIP, a .tgz or a tar is known by its first bytes, whatever its name says (a .tgz renamed
  // .zip, a download saved without its extension); else by its name.
  const sniffed =
    info?.isFile() && !isCsv
      ? await archiveKindOf(command.archive).catch(() => undefined)
      : undefined;
  const kind =
    sniffed ??
    (isFolder ? undefined : /\.zip$/i.test(command.archive) ? 'zip' : tarKindOf(command.archive));
  const isZip = kind === 'zip';
  const tar = kind === 'zip' ? undefined : kind;
  // The starred places unzipped (`Saved Places.json`, or its name in another language): one list.
  const isJson = !isFolder && !isCsv && !kind && /\.json$/i.test(command.archive);
  if (!isFolder && !isZip && !isCsv && !tar && !isJson) {
    throw new ConverterError('not-a-zip', INPUT_MESSAGE);
  }
  const isRetry =
    isCsv &&
    path
      .basename(command.archive)
      .replace(/\.csv$/i, '')
      .endsWith(FAILED_CSV_SUFFIX);
  const retry = isRetry ? await retryInput(command.archive) : undefined;
  // A ZIP past what is read whole (16 MB: most often a part of an export of the whole account) is
  // read by random access, only its lists (`zip-file.ts`).
  const large = isZip && info !== undefined && readsByRanges(info.size);
  if (large) checkPartSize(info.size);
  if (info && (isCsv || isJson)) checkCsvSize(info.size, command.archive);
  if (info && tar) checkTarSize(info.size, tar);
  // A .tgz or a folder has its lists kept as they stream by, read as a Takeout ZIP is (`Repack`).
  const input = await (
    isFolder
      ? readFolderLists(command.archive, { skip: command.out, warn: skipped })
      : large
        ? readLargeZipFile(command.archive, info.size)
        : tar
          ? readTar(command.archive, tar, info?.size ?? 0, reading)
          : isJson
            ? readStarredFile(command.archive, reading.signal)
            : readFile(command.archive, { signal: reading.signal })
  ).catch((error: NodeJS.ErrnoException) => {
    if (reading.signal.aborted) throw reading.signal.reason;
    if (error instanceof ConverterError) throw saidOfInput(error, command.archive, tar);
    throw new ConverterError(
      'extract-failed',
      error.code === 'ENOENT'
        ? `File not found: ${command.archive}`
        : `Could not read ${command.archive}: ${errnoText(error)}.`,
    );
  });
  // A failed-places CSV's files are named after the list it came from, as a retry: `Want to go -
  // failed-places.csv` writes `Want to go (retry).kml` (see `planOutputs`).
  let lists: InspectedList[];
  // Every list of the archive, as seen before any is read: what a refusal past the cap names.
  let every: readonly ListEntry[] = [];
  const options = {
    inflate: zlibInflate,
    crc32: zlibCrc32,
    release: releaseBytes,
    logger: { warn: skipped },
    // Only the lists asked for are read, so they count alone against the place cap.
    pick: (all: readonly ListEntry[]) => {
      every = all;
      const picked = command.lists.length > 0 ? pickListsOrRefuse(all, command.lists) : all;
      return picked.map((list) => list.path);
    },
  };
  try {
    ({ lists } = !(input instanceof Uint8Array)
      ? inspectZipContents(input, options)
      : !isCsv
        ? inspectArchive(new Uint8Array(input.buffer, input.byteOffset, input.byteLength), options)
        : inspectCsv(csvText(input, command.archive, io.stderr), path.basename(command.archive)));
  } catch (error) {
    if (isJson && error instanceof ConverterError && error.code === 'no-csv') {
      throw new ConverterError(
        'no-csv',
        `${path.basename(command.archive)} is not the starred places of Google Takeout ("Saved Places.json", in "Maps (your places)"). ${INPUT_MESSAGE}`,
      );
    }
    if (error instanceof ConverterError && error.code === 'too-many-places' && every.length > 1) {
      throw new ConverterError('too-many-places', pastCapMessage(every, command.lists.length > 0));
    }
    throw saidOfInput(error, command.archive, tar);
  } finally {
    // The lists are read: nothing refers to the file's bytes any more.
    if (input instanceof Uint8Array) releaseBytes(input);
  }
  return {
    lists: command.lists.length === 0 ? lists : pickListsOrRefuse(lists, command.lists),
    retry,
    unread,
  };
}

/**
 * A JSON file given on its own, as the one entry of an archive (named as the file is), so it is
 * read as the starred places of an export are: by its name (`Saved Places.json`), or by its start
 * when it has another (Takeout names it in the account's language).
 */
async function readStarredFile(file: string, signal: AbortSignal): Promise<ZipContents> {
  const repack = new Repack('folder', FOLDER_LIMITS);
  repack.keep(path.basename(file), await readFile(file, { signal }));
  return repack.contents();
}

/**
 * A `.tgz` (or `.tar`) read through, stopped by `reading.signal`; past {@link SHOW_READING_BYTES}
 * (seconds of reading, minutes for a part of tens of GB) its progress is shown.
 */
async function readTar(file: string, kind: TarKind, size: number, reading: Reading) {
  const line =
    size > SHOW_READING_BYTES ? reading.show(formatReading(path.basename(file))) : undefined;
  try {
    return await readTarLists(file, kind, {
      signal: reading.signal,
      ...(line ? { onRead: (read: number, total: number) => line.update(read, total) } : {}),
    });
  } finally {
    line?.finish();
  }
}

/**
 * An error about the input as the person is told it: the seed's "No CSV files found in the zip
 * file." names a `.tgz` (or `.tar`) as what it is; and a part of an export in several that holds
 * no list (`no-csv`, `no-place-lists`; a file, or its folder unzipped) says that the lists are in
 * another part. Any other error as it is.
 */
function saidOfInput(error: unknown, file: string, tar: TarKind | undefined): unknown {
  if (!(error instanceof ConverterError)) return error;
  const said =
    tar && error.code === 'no-csv' && error.message === MESSAGES.noCsv
      ? new ConverterError('no-csv', `No CSV files found in the ${tarName(tar)} file.`)
      : error;
  const part = takeoutPartOf(path.basename(file));
  if (part === undefined || (said.code !== 'no-csv' && said.code !== 'no-place-lists')) {
    return said;
  }
  return new ConverterError(said.code, `${said.message} ${anotherPartSentence(part, 'give')}`);
}

/** Whether both paths are one folder (the same path, or links to it). */
async function sameFolder(first: string, second: string): Promise<boolean> {
  const info = await stat(first).catch(() => null);
  return !!info?.isDirectory() && (await sameFile(first, second));
}

/** Whether two paths name one file: the same path, or links to the same file. */
async function sameFile(first: string, second: string): Promise<boolean> {
  if (path.resolve(first) === path.resolve(second)) return true;
  const [a, b] = await Promise.all([first, second].map((file) => stat(file).catch(() => null)));
  return !!a && !!b && a.dev === b.dev && a.ino === b.ino;
}

/**
 * Refuses the run (exit 2) when files it writes are already there and `--force` was not given;
 * undefined when it may go on.
 */
function refuseExisting(
  existing: readonly ExistingEntry[],
  outDir: string,
  command: ConvertCommand,
  io: CliIo,
  cacheKept: boolean,
): number | undefined {
  if (existing.length === 0 || command.force) return undefined;
  const message = `${existingMessage(existing, outDir)}${cacheKept ? '\nThe places found are kept in the cache file: running again looks none of them up twice.' : ''}`;
  if (command.json) {
    io.stdout(
      JSON.stringify({
        error: { code: 'files-exist', message, files: existing.map((entry) => entry.target) },
      }),
    );
  }
  io.stderr(`placeport: ${message}`);
  return 2;
}

/** The exit code of a finished run (see {@link EXIT}): an interruption first, then failures, then Google out of reach. */
function exitCode(summary: CliSummary): number {
  if (summary.interrupted) return EXIT[summary.interrupted];
  if (summary.unread || summary.lists.some((list) => list.skippedReason || list.notWritten)) {
    return EXIT.failed;
  }
  if (summary.lookups.unreachable) return EXIT.unreachable;
  return EXIT.ok;
}

async function convert(
  command: ConvertCommand,
  io: CliIo,
  env: CliEnvironment,
  interrupts: Interrupts,
): Promise<number> {
  let progress: ProgressLine | undefined;
  const stop = new AbortController();
  let interrupted: StopSignal | undefined;
  // Until the input is read, an interrupt stops the run with nothing written: there is nothing yet.
  let reading = true;
  // Once the lists are converted, an interrupt stops nothing: the files are written, then the run
  // ends as it would have.
  let converted = false;
  // Whether the run looks anything up: one that does not (--offline, every link with its pin) has
  // nothing an interrupt could cut short.
  let looksUp = false;
  const again = (signal: StopSignal) =>
    signal === 'SIGINT' ? 'press Ctrl-C again' : 'send it again';
  const stopListening = interrupts.listen((signal) => {
    if (converted || (!reading && !looksUp)) {
      io.stderr(
        `placeport: ${looksUp ? 'every place was looked up' : 'nothing is looked up in this run'}: stopping once the files are written (${again(signal)} to stop at once).`,
      );
      return;
    }
    interrupted = signal;
    progress?.finish({ stopped: true });
    progress = undefined;
    io.stderr(
      reading
        ? `placeport: interrupted while reading ${command.archive}: nothing was written.`
        : `placeport: interrupted: looking up no more places; writing every list with what has coordinates (${again(signal)} to stop at once).`,
    );
    stop.abort();
  });
  const stopped = (signal: StopSignal) => {
    if (command.json) {
      io.stdout(
        jsonError(
          'interrupted',
          `Interrupted while reading ${command.archive}: nothing was written.`,
        ),
      );
    }
    return EXIT[signal];
  };
  const progressLine = (format: (state: ProgressState) => string) => {
    if (io.progress) {
      return createProgressLine(io.progress, Date.now, { format, columns: io.progressColumns });
    }
    if (io.progressLog) {
      return createProgressLine(io.progressLog, Date.now, { terminal: false, format });
    }
    return undefined;
  };
  // Local lookups save their finds as they go; whatever ends the run, they stop with it.
  let local: LocalLookups | undefined;
  try {
    if (command.cacheFile && (await sameFile(command.archive, command.cacheFile))) {
      throw new UsageError(
        `--cache-file ${command.cacheFile} is the file being converted: give another --cache-file (a run writes the cache over it).`,
      );
    }
    if (await sameFolder(command.archive, command.out)) {
      throw new UsageError(
        `--out ${command.out} is the folder being converted: the files a run writes there would be read as lists by the next. Give another --out folder.`,
      );
    }
    const {
      lists: chosen,
      retry,
      unread,
    } = await readLists(command, io, {
      signal: stop.signal,
      show: (format) => (progress = progressLine(format)),
    });
    progress = undefined;
    reading = false;
    if (interrupted) return stopped(interrupted);
    looksUp =
      command.lookups.kind === 'api' ||
      (command.lookups.kind === 'local' && chosen.some((list) => list.needsLookup > 0));
    const outDir = path.resolve(command.out);
    const outProblem = await outFolderProblem(outDir);
    if (outProblem) throw new UsageError(outProblem);
    // Before any lookup: a refusal now costs nothing, after an hour of lookups it costs the hour.
    const early = await existingBeforeRun(chosen, command.formats, outDir, retry);
    // A list CSV converted to CSV into its own folder: even --force never writes over the input.
    for (const { target } of early) {
      if (await sameFile(target, command.archive)) {
        throw new UsageError(
          `${target} is the file being converted, and this run would write over it: give another --out folder.`,
        );
      }
    }
    const refusedEarly = refuseExisting(early, outDir, command, io, false);
    if (refusedEarly !== undefined) return refusedEarly;
    progress = progressLine(formatProgress);
    // The pipeline counts the run's distinct places once, each when its answer is final.
    const onProgress = (update: ConversionProgress) => {
      const { lookups } = update;
      if (lookups) progress?.update(lookups.done, lookups.total, lookups);
    };

    // Offline, the pipeline gets no resolveUrls and gives such places `not_looked_up`. Local
    // lookups (the resolver, undici, the cache file) are loaded only when a link needs one.
    let lookups: Lookups | undefined;
    if (command.lookups.kind === 'api') {
      const fetch = await apiFetch(env.proxies, command.lookups.apiBase);
      lookups = apiLookups(command.lookups.apiBase, fetch ? { fetch } : {});
    } else if (command.lookups.kind === 'local' && looksUp) {
      lookups = local = await openLocalLookups({
        cacheFile: command.cacheFile,
        ...(env.cacheSaveMs !== undefined ? { saveEveryMs: env.cacheSaveMs } : {}),
        googleMapsApiKey: command.lookups.googleMapsApiKey,
        env,
        // A warning in the middle of the lookups (Google refused the key) goes above the progress.
        warn: (text) => {
          const print = () => io.stderr(`placeport: warning: ${text}`);
          if (progress) progress.above(print);
          else print();
        },
      });
    }
    const conversion: ConversionOptions = {
      logger: { warn: () => {} },
      // No files from the conversion: `writePlans` writes each from the places as it saves it, so
      // the run never holds every list's text (see `planOutputs`).
      formats: [],
      signal: stop.signal,
      onProgress,
      ...(env.retryDelayMs !== undefined ? { retryDelayMs: env.retryDelayMs } : {}),
      ...(lookups
        ? {
            resolveUrls: lookups.resolveUrls,
            resolveChunkSize: command.lookups.kind === 'api' ? API_CHUNK_SIZE : LOCAL_CHUNK_SIZE,
          }
        : {}),
    };

    const { lists: results } = await convertArchive({ lists: chosen }, conversion);
    converted = true;
    progress?.finish({ stopped: lookups?.stats.unreachable !== undefined });
    progress = undefined;

    let cache: CacheSummary | null = null;
    if (command.cacheFile) {
      cache = { file: command.cacheFile, loaded: local?.loaded ?? 0, saved: null };
      // Written when something was looked up, or to replace a damaged file; else left as it is.
      if (local && (local.stats.links > 0 || local.damaged)) {
        try {
          cache.saved = await local.save(command.cacheFile);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          io.stderr(
            `placeport: warning: ${code ? `the cache file ${command.cacheFile} could not be saved (${code}).` : (error as Error).message}`,
          );
        }
      }
    }

    const { plans, existing } = await planOutputs(results, command.formats, outDir, retry);
    const refused = refuseExisting(existing, outDir, command, io, (cache?.saved ?? 0) > 0);
    if (refused !== undefined) return refused;
    const written = await writePlans(plans, outDir, command.force, early);
    const summary = summarize(results, written, {
      outDir,
      lookups: {
        ...(lookups?.stats ?? emptyStats(command.lookups.kind)),
        ...(command.lookups.kind === 'api' ? { api: command.lookups.apiBase } : {}),
        ...(command.lookups.kind === 'offline' ? {} : proxyOfRun(env, command.lookups)),
      },
      cache,
      interrupted,
      unread,
    });
    io.stdout(command.json ? JSON.stringify(summary, null, 2) : printable(formatSummary(summary)));
    for (const { name, skippedReason } of summary.lists) {
      if (skippedReason) io.stderr(`placeport: ${name}: ${skippedReason}`);
    }
    for (const { name, notWritten = [] } of summary.lists) {
      for (const { file, reason } of notWritten) {
        io.stderr(`placeport: ${name}: ${file} could not be written: ${reason}`);
      }
    }
    // Without --json the summary says it; with it, stdout is JSON, so the person reads it here.
    if (command.json) {
      for (const sentence of [unreachableSentence(summary), ...apiProblemSentences(summary)]) {
        if (sentence) io.stderr(`placeport: ${sentence}`);
      }
    }
    return exitCode(summary);
  } catch (error) {
    progress?.finish();
    // An interrupt while reading said so already; the read stopped with the signal's reason.
    if (interrupted && reading) return stopped(interrupted);
    // An ambiguous --list is wrong usage (exit 2), found only once the archive is read.
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (command.json) {
      io.stdout(jsonError(error instanceof ConverterError ? error.code : 'unexpected', message));
    }
    io.stderr(`placeport: ${message}`);
    return interrupted ? EXIT[interrupted] : EXIT.failed;
  } finally {
    stopListening();
    await local?.close();
  }
}
