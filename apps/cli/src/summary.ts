import { formatCount, REASON_TEXT, type UnplacedReason } from '@placeport/contract';
import type { ConversionResult } from '@placeport/converter';
import { FAILED_CSV_SUFFIX } from '@placeport/converter/internal';
import { KEY_ADVICE, type LookupStats } from './lookups.js';
import type { ListWrite } from './outputs.js';
import type { StopSignal } from './main.js';

/** Counts of places left without coordinates, by reason. */
export type UnplacedCounts = Partial<Record<UnplacedReason, number>>;

/** Per list, what the CLI's `--json` prints. */
export interface ListSummaryLine {
  name: string;
  path: string;
  total: number;
  converted: number;
  skipped: number;
  /** Places placed thanks to a lookup. */
  resolved: number;
  /** Places without coordinates, by reason (they are in the list's failed-places CSV). */
  unplaced: UnplacedCounts;
  /** Why the list itself could not be read (then nothing was converted from it). */
  skippedReason?: string;
  /** The list was read and holds no place (Takeout's "Test" or "Work" lists): not an error. */
  empty?: true;
  /** The files written. */
  files: string[];
  /** Files of the list that could not be written, each with the reason (the other lists still were). */
  notWritten?: Array<{ file: string; reason: string }>;
  /** A retry's failed-places CSV, removed because every place in it was placed. */
  removed?: string[];
  /** Files an earlier run wrote for the list that this one (with `--force`) does not: removed. */
  cleared?: string[];
}

/** The cache file of local lookups: where it is, and how many places it held and holds. */
export interface CacheSummary {
  file: string;
  /** Places known when the run started (0 for a new, unreadable or unused file). */
  loaded: number;
  /**
   * Places written to it at the end, or null when it was not written: nothing was looked up, or
   * writing failed (then a warning is on stderr).
   */
  saved: number | null;
}

/** What the CLI's `--json` prints. */
export interface CliSummary {
  outDir: string;
  lists: ListSummaryLine[];
  totals: { total: number; converted: number; skipped: number; unplaced: UnplacedCounts };
  /**
   * `api`: the `--api` base URL; `proxy`: the variable whose proxy the lookups went through
   * (`HTTPS_PROXY`, …); `proxyUnsupported`: a proxy variable set that they could not go through
   * (`ALL_PROXY`, a SOCKS proxy).
   */
  lookups: LookupStats & { api?: string; proxy?: string; proxyUnsupported?: string };
  /** Null with `--no-cache`, `--offline` and `--api`. */
  cache: CacheSummary | null;
  /**
   * The run was stopped (Ctrl-C, SIGTERM, SIGHUP) before its lookups were done, places left
   * unlooked-up (`interrupted`): the signal.
   */
  interrupted?: StopSignal;
  /**
   * What of the input could not be read and was skipped (`Skipped <path>: <why>.`): a list of a
   * ZIP that cannot be unpacked, a file or folder of an unzipped export that cannot be read.
   */
  unread?: string[];
}

/** Reasons in the order summaries list them. */
const REASON_ORDER = Object.keys(REASON_TEXT) as UnplacedReason[];

function addCounts(into: UnplacedCounts, from: UnplacedCounts): UnplacedCounts {
  for (const reason of REASON_ORDER) {
    const count = from[reason];
    if (count) into[reason] = (into[reason] ?? 0) + count;
  }
  return into;
}

export function summarize(
  results: readonly ConversionResult[],
  written: ReadonlyMap<string, ListWrite>,
  context: {
    outDir: string;
    lookups: CliSummary['lookups'];
    cache: CacheSummary | null;
    interrupted?: StopSignal | undefined;
    unread?: readonly string[];
  },
): CliSummary {
  const lists = results.map((result): ListSummaryLine => {
    const write = written.get(result.path);
    return {
      name: result.name,
      path: result.path,
      total: result.stats.totalPlaces,
      converted: result.stats.converted,
      skipped: result.stats.skipped,
      resolved: result.resolvedCount ?? 0,
      unplaced: addCounts({}, result.stats.unplaced),
      ...(result.skippedReason ? { skippedReason: result.skippedReason } : {}),
      ...(result.empty ? { empty: true as const } : {}),
      files: write?.files ?? [],
      ...(write?.notWritten.length ? { notWritten: write.notWritten } : {}),
      ...(write?.removed.length ? { removed: write.removed } : {}),
      ...(write?.cleared.length ? { cleared: write.cleared } : {}),
    };
  });
  const totals = lists.reduce(
    (sum, list) => ({
      total: sum.total + list.total,
      converted: sum.converted + list.converted,
      skipped: sum.skipped + list.skipped,
      unplaced: addCounts(sum.unplaced, list.unplaced),
    }),
    { total: 0, converted: 0, skipped: 0, unplaced: {} as UnplacedCounts },
  );
  return {
    outDir: context.outDir,
    lists,
    totals,
    lookups: context.lookups,
    cache: context.cache,
    // Stopped when every place had its answer (an offline run, the last lookup answered): nothing
    // was cut short, and the run is reported as it ended.
    ...(context.interrupted && totals.unplaced.interrupted
      ? { interrupted: context.interrupted }
      : {}),
    ...(context.unread?.length ? { unread: [...context.unread] } : {}),
  };
}

const plural = (value: number, one: string, many = `${one}s`) =>
  `${formatCount(value)} ${value === 1 ? one : many}`;

/** Every reason with its count and sentence, one per line, most common first. */
function reasonLines(unplaced: UnplacedCounts, indent: string): string[] {
  return REASON_ORDER.filter((reason) => unplaced[reason])
    .sort((a, b) => unplaced[b]! - unplaced[a]!)
    .map(
      (reason) =>
        `${indent}${formatCount(unplaced[reason] ?? 0).padStart(5)}  ${REASON_TEXT[reason]}`,
    );
}

/**
 * Why the advice is to give the failed-places CSVs back rather than to run the same command
 * again: that would stop on the files the first run wrote (without --force).
 */
const NO_FORCE = 'a retry needs no --force';

/**
 * The sentence printed when Google (or the PlacePort API) could not be reached and the run stopped
 * looking up: what the network said, what to do, and where the places not looked up are.
 */
export function unreachableSentence(summary: CliSummary): string | undefined {
  const { lookups } = summary;
  if (!lookups.unreachable) return undefined;
  const count = summary.totals.unplaced.unavailable ?? 0;
  const csvs =
    summary.lists.filter((list) => list.unplaced.unavailable).length > 1 ? 'CSVs' : 'CSV';
  const where =
    count === 1
      ? `1 place was not looked up and is in the failed-places ${csvs}`
      : `${plural(count, 'place')} were not looked up and are in the failed-places ${csvs}`;
  if (lookups.mode === 'api' && lookups.unreachable.answered) {
    return `The PlacePort API at ${lookups.api} cannot reach Google; ${where}. Give those back to placeport convert later, or without --api to look them up from this computer (${NO_FORCE}).`;
  }
  return lookups.mode === 'api'
    ? `Cannot reach the PlacePort API at ${lookups.api} (${lookups.unreachable.cause}); ${where}. Check that it is running, then give those back to placeport convert, or without --api to look them up from this computer (${NO_FORCE}).${proxyNote(lookups)}`
    : `Cannot reach Google (${lookups.unreachable.cause}); ${where}. Check your connection, then give those back to placeport convert to look them up (${NO_FORCE}).${proxyNote(lookups)}`;
}

/**
 * A sentence to add, when the lookups could not get through, about the proxy set in the
 * environment: the one they went through, or one they could not use.
 */
function proxyNote(lookups: CliSummary['lookups']): string {
  const target = lookups.mode === 'api' ? 'the API' : 'Google';
  if (lookups.proxy) {
    const unless = lookups.mode === 'api' ? " (unless NO_PROXY names the API's host)" : '';
    return ` The lookups went through the proxy in ${lookups.proxy}${unless}: check that it is running and lets ${target} through (a proxy asking for a password takes it in its URL: http://user:password@proxy:3128).`;
  }
  if (lookups.proxyUnsupported) {
    return ` ${lookups.proxyUnsupported} is set, but placeport goes only through http(s) proxies given in HTTPS_PROXY or HTTP_PROXY: its lookups went straight to ${target}.`;
  }
  return '';
}

/** "500 to 27 requests and 503 to 2" (most requests first). */
function statusCounts(counts: Record<number, number>): string {
  const parts = Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([status, count]) => `${status} to ${plural(count, 'request')}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

/**
 * The sentences printed when the PlacePort API failed requests as a whole without refusing them
 * (5xx, 404, …), or answered something that is not a PlacePort API (a network's sign-in page).
 */
export function apiProblemSentences(summary: CliSummary): string[] {
  const { lookups } = summary;
  if (lookups.mode !== 'api') return [];
  const lines: string[] = [];
  const errors = lookups.apiErrors ?? {};
  if (Object.keys(errors).length > 0) {
    const wrongAddress = Object.keys(errors).some((status) => Number(status) < 500);
    lines.push(
      `The PlacePort API at ${lookups.api} answered ${statusCounts(errors)}; ${wrongAddress ? 'check the --api address, then give' : 'give'} the failed-places CSVs back to placeport convert${wrongAddress ? '' : ' later'}, or without --api to look them up from this computer (${NO_FORCE}).`,
    );
  }
  if (lookups.notAnApi) {
    const { requests, detail } = lookups.notAnApi;
    lines.push(
      `The server at ${lookups.api} answered something that is not a PlacePort API to ${plural(requests, 'request')} (${detail}): check the --api address (a network's sign-in page answers so too), then give the failed-places CSVs back to placeport convert, or without --api to look them up from this computer (${NO_FORCE}).`,
    );
  }
  return lines;
}

/** What the lookups did, in a sentence or two (none when nothing needed looking up). */
function lookupLines(summary: CliSummary): string[] {
  const { lookups } = summary;
  const lines: string[] = [];
  if (lookups.mode !== 'offline' && lookups.links > 0) {
    // Local: the links sent to the resolver; API: those it answered one by one.
    const tried = lookups.mode === 'local' && lookups.unreachable;
    const { pages, places } = lookups.upstreamRequests;
    const how =
      lookups.mode === 'local'
        ? `from this computer: ${formatCount(lookups.cacheHits)} from the cache file, ${plural(pages + places, 'request')} to Google${places ? ` (${places} to the Places API)` : ''}`
        : `through the PlacePort API at ${lookups.api} (${plural(lookups.apiRequests, 'request')})`;
    // Distinct places: one saved in two lists (two rows, counted twice below) is looked up once.
    lines.push(
      `${tried ? 'Tried to look up' : 'Looked up'} ${plural(lookups.links, 'distinct place')} ${how}.`,
    );
  }
  if (lookups.mode === 'local' && lookups.placesKeyRejected) {
    lines.push(
      `Google refused the API key for the Places API (${lookups.placesKeyRejected}): places were looked up from their pages instead. ${KEY_ADVICE}`,
    );
  }
  const unplaced = summary.totals.unplaced;
  const unreachable = unreachableSentence(summary);
  if (unreachable) lines.push(unreachable);
  lines.push(...apiProblemSentences(summary));
  if (lookups.mode === 'api' && (lookups.refused || unplaced.limit)) {
    const refusal = lookups.refused
      ? `The PlacePort API refused the lookups (${lookups.refused.status}: ${lookups.refused.message}).`
      : 'The PlacePort API would not look up every place: its allowance was used up.';
    lines.push(
      `${refusal} Places it did not look up are in the failed-places CSVs. To look them up from your own computer instead, give those CSVs back to placeport convert without --api (${NO_FORCE}), or run the same command without --api and with --force.`,
    );
  }
  if (lookups.mode === 'local' && !unreachable && (unplaced.throttled || unplaced.unavailable)) {
    lines.push(
      `Some lookups were refused by Google or failed (in the failed-places CSVs): give those back to placeport convert later (${NO_FORCE}), or run the same command again with --force.${summary.cache ? ' Places already found are in the cache file and are not looked up again.' : ''}${proxyNote(lookups)}`,
    );
  }
  if (summary.interrupted) {
    const count = unplaced.interrupted ?? 0;
    lines.push(
      `Interrupted: ${count === 1 ? '1 place was' : `${plural(count, 'place')} were`} not looked up (in the failed-places CSVs). Give those back to placeport convert, or run the same command again with --force${summary.cache ? ': places already found come from the cache file' : ''}.`,
    );
  }
  if (lookups.mode === 'offline' && unplaced.not_looked_up) {
    lines.push(
      `Lookups were off (--offline): give the failed-places CSVs back to placeport convert without --offline to look those places up (${NO_FORCE}).`,
    );
  }
  return lines;
}

/** The mark of a list: ✓ placed and written, ✗ nothing placed or not written in full, – empty. */
function markOf(list: ListSummaryLine): string {
  if (list.empty) return '–';
  return list.notWritten?.length || list.converted === 0 ? '✗' : '✓';
}

/** The readable summary printed without `--json`. */
export function formatSummary(summary: CliSummary): string {
  const lines: string[] = (summary.unread ?? []).map((text) => `✗ ${text}`);
  for (const list of summary.lists) {
    if (list.skippedReason) {
      lines.push(`✗ ${list.name}: skipped — ${list.skippedReason}`);
      continue;
    }
    if (list.empty) {
      lines.push(`${markOf(list)} ${list.name}: empty (the list holds no places)`);
      continue;
    }
    const failed = list.notWritten?.length ?? 0;
    lines.push(
      `${markOf(list)} ${list.name}: ${formatCount(list.converted)} of ${plural(list.total, 'place')} placed${list.skipped ? `, ${formatCount(list.skipped)} without coordinates:` : ''}`,
    );
    lines.push(...reasonLines(list.unplaced, '  '));
    lines.push(...list.files.map((file) => `    ${file}`));
    if (failed) {
      lines.push(`  ${plural(failed, 'file')} could not be written:`);
      lines.push(...list.notWritten!.map(({ file, reason }) => `    ${file}: ${reason}`));
    }
    lines.push(
      ...(list.removed ?? []).map((file) => `    removed ${file}: every place in it is placed now`),
      ...(list.cleared ?? []).map(
        (file) => `    removed ${file}: an earlier run's, not made again`,
      ),
    );
  }
  const { total, converted, skipped, unplaced } = summary.totals;
  lines.push('', `${formatCount(converted)} of ${plural(total, 'place')} placed.`);
  if (skipped > 0) {
    // A full disk can refuse the failed-places CSV itself: then those places are only named here.
    const csvLost = summary.lists.some((list) =>
      list.notWritten?.some(({ file }) => file.endsWith(`${FAILED_CSV_SUFFIX}.csv`)),
    );
    lines.push(
      `${plural(skipped, 'place')} without coordinates (listed in the failed-places CSVs, with the reason${csvLost ? ', but for the lists whose CSV could not be written: ✗ above' : ''}):`,
      ...reasonLines(unplaced, ''),
    );
  }
  lines.push(...lookupLines(summary));
  const unwritten = summary.lists.filter((list) => list.notWritten).length;
  if (unwritten > 0) {
    lines.push(
      `${plural(unwritten, 'list')} could not be written in full (✗ above, with the reason); the others were.`,
    );
  }
  const written = summary.lists.some((list) => list.files.length > 0);
  lines.push(
    written ? `Files are in ${summary.outDir}` : `No file was written to ${summary.outDir}.`,
  );
  return lines.join('\n');
}
