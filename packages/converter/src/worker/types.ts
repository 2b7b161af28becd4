import type { OutputFile, OutputFormat, OutputPart } from '../core/formats/output.js';
import type { ConversionProgress } from '../core/seams.js';
import type { ConversionResult, ListIdentity, ListSummary, Result } from '../core/types.js';

export type { ConversionProgress, ConversionStage } from '../core/seams.js';

/** Where the worker sends links that carry no coordinates. Absent: no resolution, such places are skipped. */
export interface ResolveOptions {
  /** Base URL of the PlacePort API, e.g. `https://placeport.example` or `http://127.0.0.1:8080`. */
  apiBase: string;
  /**
   * The authorized payment, which raises the server's batch limit to the intent's place count.
   * Without it the lookups are the API's free tier: `FREE_TIER_MAX_URLS` (4) links a request and
   * the API's free lookups of the day; places past those get the reason `limit`.
   */
  paymentIntentId?: string;
  /** Whole-batch timeout; defaults to the seed's 120 000 ms. */
  timeoutMs?: number;
}

/** What to convert: the lists chosen, where links are looked up, and the format of the files. */
export interface ConvertOptions {
  /** Paths (list identities) of the lists to convert, in the order to convert them. */
  paths: string[];
  resolve?: ResolveOptions;
  /** The format of the files returned (KML when absent); {@link ConverterWorkerApi.files} gives others later. */
  format?: OutputFormat;
}

/**
 * A file the writers made (`F`, an {@link OutputFile} or a map file's {@link OutputPart}) as it
 * crosses the worker boundary: its content as bytes, transferred rather than copied.
 */
export type TransferredFile<F extends OutputFile = OutputFile> = Omit<F, 'data'> & {
  bytes: ArrayBuffer;
};

/** A map file of a list: one part of it when the list was split for My Maps' 2,000 a layer. */
export type MapOutputFile = TransferredFile<OutputPart>;

/** One chosen list after conversion. */
export interface ListOutcome extends Pick<
  ConversionResult,
  'path' | 'name' | 'outputName' | 'fileName' | 'stats' | 'skippedReason' | 'empty'
> {
  /** The list's map files in the format asked for (empty when no place has coordinates). */
  files: MapOutputFile[];
  /** Places without coordinates, for retry (Title, Note, URL, Comment, Reason; Tags when the list had them). */
  failedCsv?: TransferredFile & { count: number };
  /** How many places got their coordinates through the API. */
  resolvedCount: number;
}

/** A conversion's outcome as the page gets it: per list its counts and files, and the totals. */
export interface ConversionSummary {
  lists: ListOutcome[];
  totals: { total: number; converted: number; skipped: number };
}

/**
 * One converted list's placed places for the results' map: positions as one flat buffer (transferred,
 * not copied) and names in the same order, so 100,000 places cross the worker boundary cheaply.
 */
export interface ListPoints extends Pick<ListIdentity, 'path' | 'name' | 'origin'> {
  /** Longitude, latitude pairs: place `i` is at `[coordinates[2 * i], coordinates[2 * i + 1]]`. */
  coordinates: Float64Array;
  /** Place `i`'s name as every output writes it ("Dropped pin" when it has no title). */
  names: string[];
}

/** The object the worker exposes through Comlink. Every method resolves; failures come back as `{ ok: false }`. */
export interface ConverterWorkerApi {
  /** Reads the archive's directory and keeps the place lists inside the worker. */
  inspect(
    input: Blob | ArrayBuffer | Uint8Array,
    fileName: string,
  ): Promise<Result<{ lists: ListSummary[] }>>;
  /** Converts the chosen lists of the last inspected archive. */
  convert(
    options: ConvertOptions,
    onProgress?: (progress: ConversionProgress) => void,
  ): Promise<Result<ConversionSummary>>;
  /**
   * The map files of the last conversion in another format, per list path (lists without files
   * left out). Fails when nothing was converted yet.
   */
  files(format: OutputFormat): Promise<Result<{ lists: Record<string, MapOutputFile[]> }>>;
  /**
   * "Download all": one ZIP of every file of the last conversion in a format (map files and
   * failed-places CSVs), as chunks to join into a Blob.
   */
  zipAll(format: OutputFormat): Promise<Result<{ fileName: string; chunks: ArrayBuffer[] }>>;
  /**
   * The placed places of the last conversion, per list (lists with none left out), for the
   * results' map. Fails when nothing was converted yet.
   */
  points(): Promise<Result<{ lists: ListPoints[] }>>;
  /**
   * "Retry failed places": the last conversion's places that a later lookup may place (refused,
   * unavailable, allowance used, not looked up), as new lists of their own (`origin: { kind:
   * 'retry', of }` naming the archive's list), kept beside the archive's lists so `convert` takes
   * them like any other; earlier retry lists give way to these.
   */
  prepareRetry(): Promise<Result<{ lists: ListSummary[] }>>;
  /**
   * Cancel: stops the running conversion's lookups (nothing more is sent; places not yet answered
   * get `interrupted`); `convert` then resolves with every list converted from what has
   * coordinates, as a finished run does. Nothing happens when no conversion is running.
   */
  cancel(): Promise<void>;
  /** Forgets the archive and the last conversion (Remove). */
  reset(): Promise<void>;
}
