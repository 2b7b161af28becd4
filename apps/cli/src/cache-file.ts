/**
 * The CLI's persistent cache of looked-up places: a JSON file in the user's cache folder, so a
 * rerun fetches nothing it already knows. It holds what the resolver's cache holds — a place key
 * (`cid:…` or `pid:…`), coordinates, the place id and an expiry — never a link, title or list.
 * Where it is by default is `defaultCacheFile` (config.ts), which `--help` shows without loading this.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_MAX_ENTRIES, CACHE_TTL_MS, type MemoryPlaceCache } from '@placeport/resolver';
import * as v from 'valibot';
import { CACHE_FILE_VERSION } from './config.js';
import { makeFolder } from './folders.js';

const Latitude = v.pipe(v.number(), v.finite(), v.minValue(-90), v.maxValue(90));
const Longitude = v.pipe(v.number(), v.finite(), v.minValue(-180), v.maxValue(180));

/** One entry: `[key, lat, lng, placeId | null, expiresAt]`. */
const Entry = v.tuple([
  v.pipe(v.string(), v.regex(/^[a-z]{1,10}:[A-Za-z0-9_-]{1,300}$/)),
  Latitude,
  Longitude,
  v.nullable(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,300}$/))),
  v.pipe(v.number(), v.finite()),
]);

const CacheFile = v.object({
  version: v.literal(CACHE_FILE_VERSION),
  entries: v.array(v.unknown()),
});

/**
 * What loading found: how many places came back; no file yet (or an empty one); a PlacePort cache
 * file that cannot be read in full, or a path where no file can be (a folder), which the run
 * replaces at its end where it can; or a file that is not a PlacePort cache file at all, which is
 * never written over.
 */
export type LoadOutcome =
  | { kind: 'loaded'; entries: number }
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'foreign'; reason: string }
  | { kind: 'denied'; code: string };

/** One entry as the file holds it: `[key, lat, lng, placeId | null, expiresAt]`. */
type FileEntry = v.InferOutput<typeof Entry>;

/**
 * Larger than any cache file this version writes (CACHE_MAX_ENTRIES entries take about 10 MB): a
 * larger file at the cache's path is someone else's (an archive given by mistake), and is not read.
 */
const MAX_CACHE_FILE_BYTES = 128 * 1024 * 1024;

/** How every cache file this version writes begins, whole or cut short. */
const OWN_FILE_START = `{"version":${CACHE_FILE_VERSION},`;

/**
 * The file's readable entries, or why there are none. A file is taken to be a PlacePort cache file
 * only when it is JSON holding this version's `version` field, or begins as this version writes
 * it: anything else (a list, an archive, a note given as `--cache-file`) is `foreign`, and the CLI
 * refuses to write over it. A device or a pipe is never read.
 */
async function readEntries(
  file: string,
): Promise<{ kind: 'read'; entries: FileEntry[] } | Exclude<LoadOutcome, { kind: 'loaded' }>> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    // Nothing can be written there either (a file in place of a folder above it, no permission).
    return { kind: 'unreadable', reason: code ?? String(error) };
  }
  // A folder is never replaced by a file: saving fails, the run goes on without the cache.
  if (info.isDirectory()) return { kind: 'unreadable', reason: 'EISDIR' };
  if (!info.isFile()) return { kind: 'foreign', reason: 'it is not a regular file' };
  if (info.size > MAX_CACHE_FILE_BYTES) {
    return { kind: 'foreign', reason: 'it is far larger than a cache file' };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Whose it is cannot be told (another user's, placeport run once with sudo): not written over.
    if (code === 'EACCES' || code === 'EPERM') return { kind: 'denied', code };
    return { kind: 'foreign', reason: `it cannot be read, ${code ?? String(error)}` };
  }
  // An empty file holds nothing to lose: it is a first run's file.
  if (text.trim() === '') return { kind: 'missing' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text.startsWith(OWN_FILE_START)
      ? { kind: 'unreadable', reason: 'cut short' }
      : { kind: 'foreign', reason: 'it is not JSON' };
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof data !== 'object' || Array.isArray(data) || version !== CACHE_FILE_VERSION) {
    return { kind: 'foreign', reason: 'it is JSON, but not of a PlacePort cache file' };
  }
  const parsed = v.safeParse(CacheFile, data);
  if (!parsed.success) return { kind: 'unreadable', reason: 'its entries are not a list' };
  // An entry this version cannot read is dropped; the others still count.
  const entries = parsed.output.entries.flatMap((item) => {
    const entry = v.safeParse(Entry, item);
    return entry.success ? [entry.output] : [];
  });
  return { kind: 'read', entries };
}

/**
 * Restores the file's live entries into `cache`, each with its own expiry (never later than a fresh
 * entry's would be). A missing or empty file is a first run; an unreadable cache file is reported and
 * left for {@link saveCacheFile} to replace, and the run starts with an empty cache; a file that is
 * not a cache file is answered `foreign`, for the caller to refuse.
 */
export async function loadCacheFile(file: string, cache: MemoryPlaceCache): Promise<LoadOutcome> {
  const read = await readEntries(file);
  if (read.kind !== 'read') return read;
  const latest = Date.now() + CACHE_TTL_MS;
  for (const [key, lat, lng, placeId, expiresAt] of read.entries) {
    const place = { coordinates: { lat, lng }, placeId: placeId ?? undefined };
    cache.restore(key, place, Math.min(expiresAt, latest));
  }
  return { kind: 'loaded', entries: cache.size };
}

/** Why a cache file this user may not read is left alone, and what to do. */
export function deniedFileMessage(file: string, code: string): string {
  return `The cache file ${file} cannot be read (permission denied, ${code}), so placeport will not write over it: give another --cache-file (or --no-cache), or make that file yours (it may have been written by placeport run as another user, with sudo).`;
}

/** Why a file at the cache's path that is not a PlacePort cache file is left alone, and what to do. */
export function foreignFileMessage(file: string, reason: string): string {
  return `The cache file ${file} is not a PlacePort cache file (${reason}), so placeport will not write over it: give another --cache-file (or --no-cache), or remove that file.`;
}

/** How long a save waits for another run's save of the same cache file before saving anyway. */
export const CACHE_LOCK_WAIT_MS = 10_000;
/**
 * A lock older than this is a run's that was killed while saving (a save takes well under a second,
 * even at CACHE_MAX_ENTRIES), and is taken over.
 */
export const CACHE_LOCK_STALE_MS = 30_000;
/** Between two tries to take the lock. */
const CACHE_LOCK_POLL_MS = 25;

/** The lock's timing (tests shorten it). */
export interface CacheLockTiming {
  waitMs: number;
  staleMs: number;
}

/**
 * Takes `<file>.lock` (created with `wx`: only one run has it) and answers how to release it. A lock
 * older than `staleMs` is taken over; after `waitMs` the save goes on without one (a lock folder
 * that cannot be written, a run hung while saving), as it did before there were locks.
 */
async function lockCacheFile(file: string, timing: CacheLockTiming): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return async () => {};
    }
    const held = await stat(lock).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > timing.staleMs) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() - started >= timing.waitMs) return async () => {};
    await new Promise((resolve) => setTimeout(resolve, CACHE_LOCK_POLL_MS));
  }
}

/**
 * Writes the cache's live entries to `file` atomically: into a temporary file beside it, then
 * renamed over it, so an interrupted run never leaves half a file. Just before writing, the file
 * is read again and its live entries the cache does not hold are kept (the cache's own win), so a
 * second run at the same time, which saved meanwhile, does not lose what it found, up to
 * `maxEntries` in all. Runs saving at the same moment take turns (a lock file beside it, see
 * {@link CACHE_LOCK_WAIT_MS}): without them, two reads before either rename lost one run's places.
 * Resolves to how many entries were written; throws (with {@link foreignFileMessage}) when what is
 * at `file` now is not a PlacePort cache file.
 */
export async function saveCacheFile(
  file: string,
  cache: MemoryPlaceCache,
  maxEntries: number = CACHE_MAX_ENTRIES,
  timing: CacheLockTiming = { waitMs: CACHE_LOCK_WAIT_MS, staleMs: CACHE_LOCK_STALE_MS },
): Promise<number> {
  const entries: FileEntry[] = cache
    .entriesWithExpiry()
    .map(([key, place, expiresAt]) => [
      key,
      place.coordinates.lat,
      place.coordinates.lng,
      place.placeId ?? null,
      expiresAt,
    ]);
  await makeFolder(path.dirname(file));
  const unlock = await lockCacheFile(file, timing);
  try {
    return await mergeAndWrite(file, entries, maxEntries);
  } finally {
    await unlock();
  }
}

/** {@link saveCacheFile}'s work, under the lock: `entries` and the file's others, renamed over it. */
async function mergeAndWrite(
  file: string,
  entries: FileEntry[],
  maxEntries: number,
): Promise<number> {
  const held = new Set(entries.map(([key]) => key));
  const onDisk = await readEntries(file);
  // Loading refused such a file; one put there since is not written over either.
  if (onDisk.kind === 'foreign') throw new Error(foreignFileMessage(file, onDisk.reason));
  if (onDisk.kind === 'denied') throw new Error(deniedFileMessage(file, onDisk.code));
  if (onDisk.kind === 'read') {
    const now = Date.now();
    // The file holds no more than the cache may (CACHE_MAX_ENTRIES): the other run's entries that
    // expire last fill what room is left, or what this cache let go would all come back each run.
    const others = onDisk.entries
      .filter(([key, , , , expiresAt]) => !held.has(key) && expiresAt > now)
      .sort((a, b) => b[4] - a[4])
      .slice(0, Math.max(0, maxEntries - entries.length));
    for (const [key, lat, lng, placeId, expiresAt] of others) {
      held.add(key);
      entries.push([key, lat, lng, placeId, Math.min(expiresAt, now + CACHE_TTL_MS)]);
    }
  }
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ version: CACHE_FILE_VERSION, entries })}\n`, {
      encoding: 'utf8',
      mode: 0o600,
    });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return entries.length;
}
