import * as Comlink from 'comlink';
import { ConverterError, MESSAGES, toErrorShape } from '../core/errors.js';
import { LIMITS, type Limits } from '../core/limits.js';
import { CSV_MIME_TYPE, KML_MIME_TYPE } from '../core/names.js';
import type { Result } from '../core/types.js';
import { readArchive, type InspectedList } from '../inspect.js';
import { convertLists, type Logger } from '../pipeline.js';
import { createResolveClient } from './resolve-client.js';
import type { ConversionSummary, ConverterWorkerApi, ListOutcome } from './types.js';

export interface WorkerDependencies {
  fetch?: typeof fetch;
  logger?: Logger;
  limits?: Limits;
  now?: () => number;
}

const encoder = new TextEncoder();

function encode(text: string): ArrayBuffer {
  return encoder.encode(text).buffer as ArrayBuffer;
}

async function toBytes(input: Blob | ArrayBuffer | Uint8Array): Promise<Uint8Array> {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  return new Uint8Array(await input.arrayBuffer());
}

function fail<T>(error: unknown, fallback: string): Result<T> {
  return { ok: false, error: toErrorShape(error, fallback) };
}

/**
 * The object the worker exposes through Comlink. It keeps the archive's lists in the worker, sends the
 * page only summaries, and returns files as transferable buffers. Every method resolves: failures come
 * back as `{ ok: false, error: { code, message } }` because Comlink drops custom error fields.
 */
export function createConverterWorkerApi(
  dependencies: WorkerDependencies = {},
): ConverterWorkerApi {
  const logger = dependencies.logger ?? console;
  let lists: InspectedList[] = [];

  return {
    async inspect(input, fileName) {
      lists = [];
      try {
        if (!/\.zip$/i.test(fileName)) throw new ConverterError('not-a-zip', MESSAGES.notAZip);
        const bytes = await toBytes(input);
        lists = readArchive(bytes, { limits: dependencies.limits ?? LIMITS, logger });
        return {
          ok: true,
          value: {
            lists: lists.map(({ path, name, rowCount, size }) => ({ path, name, rowCount, size })),
          },
        };
      } catch (error) {
        return fail(error, MESSAGES.extractFailed);
      }
    },

    async convert(options, onProgress) {
      try {
        if (lists.length === 0) throw new ConverterError('no-archive', MESSAGES.noArchive);
        if (options.paths.length === 0)
          throw new ConverterError('no-lists-chosen', MESSAGES.noListsChosen);
        const byPath = new Map(lists.map((list) => [list.path, list]));
        const chosen = options.paths.map((path) => {
          const list = byPath.get(path);
          if (!list)
            throw new ConverterError('unknown-list', `The list "${path}" is not in this archive.`);
          return list;
        });
        const results = await convertLists(chosen, {
          ...(options.resolve
            ? {
                resolveUrls: createResolveClient(options.resolve, dependencies.fetch),
                resolveTimeoutMs: options.resolve.timeoutMs,
              }
            : {}),
          ...(onProgress ? { onProgress } : {}),
          ...(dependencies.now ? { now: dependencies.now } : {}),
          logger,
        });
        const outcomes: ListOutcome[] = results.map((result) => {
          const outcome: ListOutcome = {
            path: result.path,
            fileName: result.fileName,
            listName: result.listName,
            stats: result.stats,
            kml: result.kml.map((part) => ({
              fileName: part.fileName,
              mimeType: KML_MIME_TYPE,
              bytes: encode(part.content),
              placemarks: part.placemarks,
              part: part.part,
              parts: part.parts,
            })),
            resolvedCount: result.resolvedCount ?? 0,
          };
          if (result.skippedReason) outcome.skippedReason = result.skippedReason;
          if (result.failedCsvContent && result.failedCsvFileName) {
            outcome.failedCsv = {
              fileName: result.failedCsvFileName,
              mimeType: CSV_MIME_TYPE,
              bytes: encode(result.failedCsvContent),
              count: result.stats.skipped,
            };
          }
          return outcome;
        });
        const totals = outcomes.reduce(
          (sum, outcome) => ({
            total: sum.total + outcome.stats.totalPlaces,
            converted: sum.converted + outcome.stats.converted,
            skipped: sum.skipped + outcome.stats.skipped,
          }),
          { total: 0, converted: 0, skipped: 0 },
        );
        const value: ConversionSummary = { lists: outcomes, totals };
        const buffers = outcomes.flatMap((outcome) => [
          ...outcome.kml.map((file) => file.bytes),
          ...(outcome.failedCsv ? [outcome.failedCsv.bytes] : []),
        ]);
        return Comlink.transfer({ ok: true, value }, buffers);
      } catch (error) {
        return fail(error, 'An error occurred during conversion.');
      }
    },

    async reset() {
      lists = [];
    },
  };
}
