/**
 * `placeport`: converts a Google Takeout archive to KML files from the command line.
 * Exit codes: 0 converted, 1 bad input or failed conversion, 2 wrong usage.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConverterError, MESSAGES } from '../core/errors.js';
import { readArchive } from '../inspect.js';
import { convertLists } from '../pipeline.js';
import { createResolveClient } from '../worker/resolve-client.js';
import { formatSummary, summarize } from './summary.js';

export const HELP = `placeport — turn Google Maps saved places (Google Takeout) into KML files for Google My Maps

Usage:
  placeport convert <archive.zip> --out <dir> [--list <name>]... [--api <base-url>] [--json]
  placeport --help

Options:
  --out <dir>       Folder to write the KML files and failed-places CSVs into (created if missing).
  --list <name>     Convert only this list (its name, e.g. "Want to go", or its path in the archive).
                    Repeat to choose several. Default: every list.
  --api <base-url>  A running PlacePort API (e.g. http://127.0.0.1:8080) to look up coordinates for
                    links that carry none. Without it, such places are skipped and listed in the
                    failed-places CSV.
  --json            Print a JSON summary instead of text.
  -h, --help        Show this help.

Lists with more than 2,000 places are split into parts, the most one Google My Maps layer takes.`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        list: { type: 'string', multiple: true },
        api: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.stderr(`placeport: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    (values.help ? io.stdout : io.stderr)(HELP);
    return values.help ? 0 : 2;
  }
  const [command, archive, ...rest] = positionals;
  if (command !== 'convert' || !archive || rest.length > 0 || !values.out) {
    io.stderr(`placeport: expected "convert <archive.zip> --out <dir>"\n\n${HELP}`);
    return 2;
  }
  if (values.api !== undefined && !/^https?:\/\/[^/]+/i.test(values.api)) {
    io.stderr(`placeport: --api must be an http(s) base URL, e.g. http://127.0.0.1:8080`);
    return 2;
  }

  try {
    if (!/\.zip$/i.test(archive)) throw new ConverterError('not-a-zip', MESSAGES.notAZip);
    const bytes = await readFile(archive).catch((error: NodeJS.ErrnoException) => {
      throw new ConverterError(
        'extract-failed',
        error.code === 'ENOENT' ? `File not found: ${archive}` : MESSAGES.extractFailed,
      );
    });
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    const lists = readArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      logger,
    });
    const wanted = values.list ?? [];
    const chosen =
      wanted.length === 0
        ? lists
        : wanted.map((name) => {
            const list = lists.find(
              (candidate) => candidate.path === name || candidate.name === name,
            );
            if (!list) {
              throw new ConverterError(
                'unknown-list',
                `No list named "${name}" in this archive. Lists: ${lists.map((l) => l.name).join(', ')}`,
              );
            }
            return list;
          });
    const results = await convertLists(chosen, {
      ...(values.api ? { resolveUrls: createResolveClient({ apiBase: values.api }) } : {}),
      logger,
    });

    const outDir = path.resolve(values.out);
    await mkdir(outDir, { recursive: true });
    const written = new Map<string, string[]>();
    const taken = new Set<string>();
    for (const result of results) {
      const files: string[] = [];
      for (const part of result.kml) {
        files.push(await writeUnique(taken, outDir, part.fileName, part.content));
      }
      if (result.failedCsvContent && result.failedCsvFileName) {
        files.push(
          await writeUnique(taken, outDir, result.failedCsvFileName, result.failedCsvContent),
        );
      }
      written.set(result.path, files);
    }
    const summary = summarize(results, written);
    io.stdout(values.json ? JSON.stringify(summary, null, 2) : formatSummary(summary, outDir));
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (values.json)
      io.stdout(
        JSON.stringify({
          error: { code: error instanceof ConverterError ? error.code : 'unexpected', message },
        }),
      );
    io.stderr(`placeport: ${message}`);
    return 1;
  }
}

/** Writes a file without overwriting one written earlier in this run (lists' names repeat across folders). */
async function writeUnique(
  taken: Set<string>,
  dir: string,
  fileName: string,
  content: string,
): Promise<string> {
  const ext = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  let candidate = fileName;
  for (let n = 2; taken.has(path.join(dir, candidate)); n += 1) candidate = `${stem} (${n})${ext}`;
  const target = path.join(dir, candidate);
  taken.add(target);
  await writeFile(target, content, 'utf8');
  return target;
}
