/**
 * Writing a run's files without harming what is already on the disk. Nothing is written through a
 * symbolic link, ever: a new file is written whole under a temporary name (created `wx`), then
 * hard-linked to its name, which fails on any existing name, a link included (even one pointing
 * nowhere), so no map file is ever seen half written; a file replaced (`--force`, or a
 * retry's own failed-places CSV) is written to a temporary file in the same folder and renamed over
 * the name, which replaces a link by a file and never touches its target. Folders are never replaced.
 */
import {
  closeSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { lstat, open, readdir, readlink, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FORMAT_INFO, type ConversionResult, type InspectedList } from '@placeport/converter';
import {
  failedCsvFileName,
  labelledStem,
  outputFileName,
  safeFileStem,
  DEFAULT_FILE_STEM,
  unwrittenListFiles,
  type UnwrittenFile,
} from '@placeport/converter/internal';
import { type OutputFormat } from '@placeport/contract';
import { makeFolder } from './folders.js';

/** What is at a path: a file, a symbolic link (never followed), a folder, or something else. */
export type EntryKind = 'file' | 'link' | 'folder' | 'other';

/** Something already at a path the run writes. */
export interface ExistingEntry {
  target: string;
  kind: EntryKind;
  /** The list whose file it would be (`existingBeforeRun`'s entries). */
  list?: string;
}

/**
 * The failed-places CSV a retry was started from. When the run writes into its folder, that file
 * is the one legitimate overwrite: it is rewritten with the places still missing (or removed when
 * none is), since the places found are in the new `(retry)` files.
 */
export interface RetryInput {
  /** Absolute path of the CSV given. */
  file: string;
  /** Its identity when it is a regular file (a link given as input is never replaced or removed). */
  id: { dev: number; ino: number } | undefined;
}

/** A file's content as pieces to write one after the other (text is written as UTF-8). */
type Content = () => Iterable<string | Uint8Array>;

/** One file to write. */
interface PlannedFile {
  target: string;
  /** Made only when the file is written, a piece at a time: the run never holds every file's text. */
  content: Content;
  /** The retry's own failed-places CSV, rewritten in place (no `--force` needed). */
  replacesInput?: boolean;
}

/** Everything one list writes (and, for a retry that placed every place, the input it removes). */
export interface ListPlan {
  path: string;
  files: PlannedFile[];
  removesInput?: string;
}

/**
 * What was done for one list: files written, files that could not be, the retry's input removed,
 * and the files of an earlier run this run replaced with `--force` but does not write again
 * (`cleared`: a failed-places CSV whose places are all placed now, a file since split in parts).
 */
export interface ListWrite {
  files: string[];
  notWritten: Array<{ file: string; reason: string }>;
  removed: string[];
  cleared: string[];
}

/** What is at `target` without following a link; undefined when nothing is. */
async function entryKind(target: string): Promise<EntryKind | undefined> {
  try {
    const info = await lstat(target);
    if (info.isSymbolicLink()) return 'link';
    if (info.isDirectory()) return 'folder';
    return info.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** True when `target` is the retry's own input CSV (the same regular file, not a link to it). */
async function isRetryInput(target: string, retry: RetryInput | undefined): Promise<boolean> {
  if (!retry?.id) return false;
  try {
    const info = await lstat(target);
    return info.isFile() && info.dev === retry.id.dev && info.ino === retry.id.ino;
  } catch {
    return false;
  }
}

/** Identity of the CSV a retry reads, taken before it is read. */
export async function retryInput(file: string): Promise<RetryInput> {
  const absolute = path.resolve(file);
  const info = await lstat(absolute).catch(() => undefined);
  return { file: absolute, id: info?.isFile() ? { dev: info.dev, ino: info.ino } : undefined };
}

/** The `(retry)` label of the n-th retry's files: `retry`, `retry 2`, … */
const retryLabel = (n: number) => (n === 1 ? 'retry' : `retry ${n}`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Before anything is looked up: the files this run will write (each format's file, its parts, the
 * failed-places CSV) that are already in `outDir`, so a refusal comes at once, not after an hour of
 * lookups. A retry's `(retry)` files are numbered past existing ones and its own CSV may be
 * rewritten, so neither is a conflict. The exact names are checked again before writing.
 */
export async function existingBeforeRun(
  lists: readonly InspectedList[],
  formats: readonly OutputFormat[],
  outDir: string,
  retry: RetryInput | undefined,
): Promise<ExistingEntry[]> {
  const names = await readdir(outDir).catch(() => [] as string[]);
  if (names.length === 0) return [];
  const candidates = new Map<string, string>();
  for (const list of lists) {
    if (list.problem) continue;
    candidates.set(failedCsvFileName(list.outputName), list.path);
    if (retry) continue;
    const stem = escapeRegExp(safeFileStem(list.outputName) || DEFAULT_FILE_STEM);
    for (const format of formats) {
      candidates.set(outputFileName(list.outputName, format), list.path);
      const ext = escapeRegExp(FORMAT_INFO[format].extension);
      const part = new RegExp(`^${stem} \\(part \\d+ of \\d+\\)\\.${ext}$`);
      for (const name of names) if (part.test(name)) candidates.set(name, list.path);
    }
  }
  const existing: ExistingEntry[] = [];
  for (const [name, list] of candidates) {
    const target = path.join(outDir, name);
    const kind = await entryKind(target);
    if (kind && !(await isRetryInput(target, retry))) existing.push({ target, kind, list });
  }
  return existing;
}

/** True when `dir` is missing or holds nothing; false when it holds something or cannot be read. */
async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** How two names compare on file systems that ignore case (Windows, macOS). */
const nameKey = (target: string) => target.normalize('NFC').toLowerCase();

/** `fileName`, numbered (`Food (2).kml`) when the run already writes one of that name. */
function unique(taken: Set<string>, dir: string, fileName: string): string {
  const ext = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  let candidate = fileName;
  for (let n = 2; taken.has(nameKey(path.join(dir, candidate))); n += 1) {
    candidate = `${labelledStem(stem, String(n))}${ext}`;
  }
  const target = path.join(dir, candidate);
  taken.add(nameKey(target));
  return target;
}

/** A retry's map files: `<list> (retry).kml`, or `(retry 2)`, … past every name already there. */
async function retryNames(
  result: ConversionResult,
  files: readonly UnwrittenFile[],
  outDir: string,
): Promise<string[]> {
  for (let n = 1; ; n += 1) {
    const stem = labelledStem(result.outputName, retryLabel(n));
    const names = files.map((part) => outputFileName(stem, part.format, part.part, part.parts));
    const kinds = await Promise.all(names.map((name) => entryKind(path.join(outDir, name))));
    if (kinds.every((kind) => kind === undefined)) return names;
  }
}

/**
 * The exact files of the run, per list, and those already on the disk: each list's files in each
 * of `formats` (written from its places only when saved, see {@link writePlans}), then its
 * failed-places CSV. Same-named lists never share a file (a number tells them apart); a retry's map
 * files are numbered past existing ones, and its failed-places CSV, when it is the input itself, is
 * rewritten (or removed when every place was placed).
 */
export async function planOutputs(
  results: readonly ConversionResult[],
  formats: readonly OutputFormat[],
  outDir: string,
  retry: RetryInput | undefined,
): Promise<{ plans: ListPlan[]; existing: ExistingEntry[] }> {
  const taken = new Set<string>();
  const plans: ListPlan[] = [];
  const existing: ExistingEntry[] = [];
  // Into a new or empty folder nothing is in the way: no file need be looked at one by one.
  const empty = await isEmptyOrMissing(outDir);
  for (const result of results) {
    const plan: ListPlan = { path: result.path, files: [] };
    const files = formats.flatMap((format) => unwrittenListFiles(result, format));
    const names = retry
      ? await retryNames(result, files, outDir)
      : files.map((part) => part.fileName);
    files.forEach((part, i) => {
      plan.files.push({ target: unique(taken, outDir, names[i]!), content: part.chunks });
    });
    const failedName = result.failedCsvFileName ?? failedCsvFileName(result.outputName);
    const failedCsv = result.failedCsvContent;
    if (failedCsv) {
      const target = unique(taken, outDir, failedName);
      plan.files.push({
        target,
        content: () => [failedCsv],
        replacesInput: await isRetryInput(target, retry),
      });
    } else if (retry && !result.skippedReason) {
      const target = path.join(outDir, failedName);
      if (await isRetryInput(target, retry)) plan.removesInput = target;
    }
    for (const file of plan.files) {
      const kind = file.replacesInput || empty ? undefined : await entryKind(file.target);
      if (kind) existing.push({ target: file.target, kind });
    }
    plans.push(plan);
  }
  return { plans, existing };
}

/** A write that was refused before touching the disk. */
class NotReplaced extends Error {}

/** Bytes gathered before a write: pieces (a placemark each) are encoded into one reused buffer. */
const WRITE_BUFFER = 64 * 1024;
const buffer = Buffer.allocUnsafe(WRITE_BUFFER);

/** Writes all of `bytes`, however many writes it takes. */
function writeAll(fd: number, bytes: Uint8Array, length = bytes.length): void {
  for (let at = 0; at < length;) at += writeSync(fd, bytes, at, length - at);
}

/**
 * A run's temporary file (`.placeport-<pid>-<n>.tmp`, see {@link writeTemporary}) this old was left
 * by a run killed while writing it (SIGKILL, a power cut): no file takes an hour to write, so the
 * next run writing into its folder removes it (on Windows it is not even hidden).
 */
export const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** The name of a run's temporary file, and nothing else. */
const TEMPORARY_NAME = /^\.placeport-\d+-\d+\.tmp$/;

/** Removes the stale temporary files ({@link STALE_TEMPORARY_MS}) in `folders`, quietly. */
async function removeStaleTemporaries(folders: Iterable<string>, now: number): Promise<void> {
  for (const folder of folders) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      if (!TEMPORARY_NAME.test(name)) continue;
      const file = path.join(folder, name);
      const found = await lstat(file).catch(() => undefined);
      if (found?.isFile() && now - found.mtimeMs > STALE_TEMPORARY_MS) {
        await rm(file, { force: true }).catch(() => {});
      }
    }
  }
}

/** The temporary file being written now, removed if the process ends meanwhile. */
let writing: string | undefined;
let temporaries = 0;
let cleanupOnExit = false;

/**
 * Writes `content` piece by piece, as the pieces are made, into a new hidden file beside `target`
 * (`.placeport-<pid>-<n>.tmp`), and answers its path: the map file itself only ever appears whole
 * (see {@link writeNew}), so a run killed in the middle of a write (SIGKILL, a power cut) never
 * leaves a file that looks finished and is not. Text is encoded into one reused
 * buffer, written when full, synchronously: no piece outlives the next, and no batch or pending
 * write holds a file's text.
 */
async function writeTemporary(target: string, content: Content): Promise<string> {
  if (!cleanupOnExit) {
    cleanupOnExit = true;
    // A process that ends in the middle of a file (an uncaught error, a process.exit) takes the
    // half-written file with it. Signals are heard only between files, when none is half written.
    process.on('exit', () => {
      if (writing) rmQuietly(writing);
    });
  }
  let temporary: string;
  let fd: number;
  for (;;) {
    temporaries += 1;
    temporary = path.join(path.dirname(target), `.placeport-${process.pid}-${temporaries}.tmp`);
    try {
      fd = openSync(temporary, 'wx');
      break;
    } catch (error) {
      // Left by a killed run whose process id this one has now: the next number is free.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  writing = temporary;
  try {
    let used = 0;
    const flush = () => {
      writeAll(fd, buffer, used);
      used = 0;
    };
    for (const piece of content()) {
      // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
      if (typeof piece === 'string' && piece.length * 3 <= WRITE_BUFFER) {
        if (used + piece.length * 3 > WRITE_BUFFER) flush();
        used += buffer.write(piece, used);
      } else {
        flush();
        writeAll(fd, typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece);
      }
    }
    flush();
  } catch (error) {
    closeSync(fd);
    await rm(temporary, { force: true });
    throw error;
  } finally {
    writing = undefined;
  }
  try {
    // Some file systems report a failed write only here (NFS, a full disk).
    closeSync(fd);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return temporary;
}

function rmQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or it cannot be: nothing more to do on the way out.
  }
}

/** Link errors of file systems without hard links (FAT, exFAT, some network shares). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

/**
 * Creates `target` with `content`, failing if anything (a link included) is there already: written
 * whole under a temporary name ({@link writeTemporary}), then linked to its name, which fails
 * (EEXIST) rather than replace what appeared meanwhile. Where the file system has no hard links,
 * it is renamed to its name once nothing is found there.
 */
async function writeNew(target: string, content: Content): Promise<void> {
  const temporary = await writeTemporary(target, content);
  try {
    linkSync(temporary, target);
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    if (lstatSync(target, { throwIfNoEntry: false })) {
      throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
    }
    renameSync(temporary, target);
  } finally {
    // Linked, renamed or refused: the temporary name goes (after a rename, nothing is there).
    rmQuietly(temporary);
  }
}

/**
 * Puts a file at `target` whatever regular file or link is there: written beside it under a
 * temporary name, then renamed over it. A folder or a device is never replaced.
 */
async function replaceFile(target: string, content: Content): Promise<void> {
  const kind = await entryKind(target);
  if (kind === 'folder') throw new NotReplaced('a folder of that name is in the way');
  if (kind === 'other') throw new NotReplaced('something that is not a file is in the way');
  const temporary = await writeTemporary(target, content);
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

const ERRNO_TEXT: Record<string, string> = {
  EISDIR: 'a folder of that name is in the way',
  EEXIST: 'a file of that name appeared during the run',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  ENAMETOOLONG: 'the path is too long for this file system',
  EINVAL: 'the file system refuses this name',
  ENOENT: 'the folder is gone',
  ENOTDIR: 'a file is in the way of the folder',
  ELOOP: 'its symbolic links lead round in a loop',
};

/**
 * Why a write failed, in words, with the system's code; `missing` words ENOENT where the folder is
 * there (a file system that makes nothing in it, such as `/proc`), not gone.
 */
function reasonOf(error: unknown, missing?: string): string {
  if (error instanceof NotReplaced) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' && missing) return `${missing} (${code})`;
  if (code) return ERRNO_TEXT[code] ? `${ERRNO_TEXT[code]} (${code})` : code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes every list's files into `outDir` (created if missing). A list whose file cannot be
 * written gets the reason, and the other lists (and its other files) are still written. Without
 * `force` a file is only ever created, never replaced; with it, regular files and links are
 * replaced (never written through), folders never.
 */
export async function writePlans(
  plans: readonly ListPlan[],
  outDir: string,
  force: boolean,
  earlier: readonly ExistingEntry[] = [],
): Promise<Map<string, ListWrite>> {
  const done = new Map<string, ListWrite>();
  const folder = await makeFolder(outDir).then(
    () => undefined,
    (error: unknown) => reasonOf(error),
  );
  if (!folder) {
    const folders = new Set(plans.flatMap((plan) => plan.files.map((f) => path.dirname(f.target))));
    await removeStaleTemporaries(folders, Date.now());
  }
  for (const plan of plans) {
    const outcome: ListWrite = { files: [], notWritten: [], removed: [], cleared: [] };
    done.set(plan.path, outcome);
    for (const file of plan.files) {
      // Writing is synchronous: between files the process hears a Ctrl-C or SIGTERM (a run writing
      // hundreds of files would otherwise take them only once it ended, and then drop them).
      await new Promise((resolve) => setImmediate(resolve));
      try {
        if (folder) throw new NotReplaced(`the folder ${outDir} could not be made: ${folder}`);
        await (force || file.replacesInput ? replaceFile : writeNew)(file.target, file.content);
        outcome.files.push(file.target);
      } catch (error) {
        outcome.notWritten.push({ file: file.target, reason: reasonOf(error) });
      }
    }
    if (plan.removesInput && outcome.notWritten.length === 0) {
      await rm(plan.removesInput).then(
        () => outcome.removed.push(plan.removesInput!),
        () => {},
      );
    }
    if (force && outcome.notWritten.length === 0) await clearEarlier(plan, earlier, outcome);
  }
  return done;
}

/**
 * With `--force`, once a list's files are all written: removes the files of an earlier run of it
 * that this run does not write again (found by `existingBeforeRun`), so no stale failed-places CSV
 * or unsplit file is left beside the new ones to be retried or imported twice. Only a regular file
 * or a link (the link itself) still there is removed, never a folder; one that cannot be is left.
 */
async function clearEarlier(
  plan: ListPlan,
  earlier: readonly ExistingEntry[],
  outcome: ListWrite,
): Promise<void> {
  const written = new Set(plan.files.map((file) => nameKey(file.target)));
  for (const { target, list } of earlier) {
    if (list !== plan.path || written.has(nameKey(target))) continue;
    const kind = await entryKind(target).catch(() => undefined);
    if (kind !== 'file' && kind !== 'link') continue;
    await rm(target).then(
      () => outcome.cleared.push(target),
      () => {},
    );
  }
}

/**
 * Checks `--out` before the run, before anything is looked up: it is made when missing (with the
 * folders above it), and a file is created in it and removed at once (`wx`, a name of its own), so
 * a folder that cannot be written (read-only, no permission, a file in the way) is found now rather
 * than after an hour of lookups. A file of that name is refused. Returns the problem in words, or
 * undefined when the run may write there.
 */
export async function outFolderProblem(outDir: string): Promise<string | undefined> {
  const info = await stat(outDir).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : error,
  );
  if (info instanceof Error) return `--out ${outDir} cannot be used: ${reasonOf(info)}`;
  if (info && !info.isDirectory()) return `--out ${outDir} is a file, not a folder`;
  try {
    await makeFolder(outDir);
  } catch (error) {
    const link = await readlink(outDir).catch(() => undefined);
    if (link !== undefined) {
      return `--out ${outDir} is a symbolic link to ${link}, which does not exist: make that folder, or give another --out folder`;
    }
    return `--out ${outDir} cannot be made: ${reasonOf(error, 'the file system will not make it')}`;
  }
  // Unique without node:crypto, which only a --force replace loads (a few ms of every run's start).
  const probe = path.join(outDir, `.placeport-probe-${process.pid}-${process.hrtime.bigint()}`);
  try {
    await (await open(probe, 'wx')).close();
  } catch (error) {
    return `--out ${outDir} cannot be written: ${reasonOf(error, 'files cannot be created there')}`;
  }
  await rm(probe, { force: true });
  return undefined;
}

const KIND_TEXT: Record<EntryKind, string> = {
  file: '',
  link: ' (a symbolic link: never followed)',
  folder: ' (a folder: never replaced)',
  other: ' (not a regular file: never replaced)',
};

/** The refusal printed when files the run writes are already there (exit 2, nothing written). */
export function existingMessage(existing: readonly ExistingEntry[], outDir: string): string {
  const count = existing.length;
  return [
    `${count === 1 ? '1 file' : `${count} files`} this run writes ${count === 1 ? 'is' : 'are'} already in ${outDir}; nothing was written:`,
    ...existing.map(({ target, kind }) => `  ${path.relative(outDir, target)}${KIND_TEXT[kind]}`),
    'Run again with --force to replace them (files and links are replaced, never written through), or choose another --out folder.',
  ].join('\n');
}
