/**
 * The converter's worker contract, seen from the page. Everything the page knows about the
 * worker's shapes comes through this file, so a change in the converter shows up in one place.
 */
import type { ConverterWorkerApi } from '@placeport/converter/worker';

export type {
  ConversionProgress,
  ConversionStage,
  ConversionSummary,
  ConverterWorkerApi,
  ConvertOptions,
  MapOutputFile,
  ListOutcome,
  ListPoints,
} from '@placeport/converter/worker';

export type { OutputFormat, UnplacedReason } from '@placeport/contract';

/** The last run's placed places per list, as the results' map draws them. */
export type MapPoints = Extract<
  Awaited<ReturnType<ConverterWorkerApi['points']>>,
  { ok: true }
>['value'];

/** The worker's answer to `inspect`, success or failure. */
export type InspectResult = Awaited<ReturnType<ConverterWorkerApi['inspect']>>;

/** The worker's answer to `convert`, success or failure. */
export type ConvertResult = Awaited<ReturnType<ConverterWorkerApi['convert']>>;

/** One list found in the archive, as the worker summarises it (path, name, places and their kinds, problem). */
export type ListSummary = Extract<InspectResult, { ok: true }>['value']['lists'][number];
