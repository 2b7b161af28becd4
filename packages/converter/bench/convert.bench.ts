/**
 * `pnpm bench`: converts generated Takeout archives of 10,000 and 100,000 places (coordinates in the
 * URLs, so no resolution) and prints, per size: wall and CPU time, places per second, peak memory, and
 * the "floor" (unzip + CSV parse alone) with the ratio converter/floor, converter and floor run in
 * alternate fresh processes. The pair is measured twice: inflating with fflate (the default, as in the
 * browser; the converter checks each list's CRC-32 in JavaScript, which fflate's `unzipSync` in the
 * floor does not) and with Node's zlib (as the CLI passes it, its CRC-32 zlib's, in both). The archive is generated once and each
 * measurement runs in a fresh process reading it from disk, so peak RSS is the conversion's own.
 * Then, for the 100,000 converted places (saved once as JSON, loaded by each fresh process): the time
 * and peak memory of writing every list in each output format (`writeListFiles`), and of one
 * "Download all" ZIP of every KML file (`zipFilesAsync` pulling from a generator, compressed by Node's
 * `CompressionStream` as the worker's is by the browser's), each with its ratio to the floor; the
 * converter against the floor plus that KML write (the one write a conversion makes: the converter's
 * run above writes every list's KML); and KMZ and the ZIP at fflate's DEFLATE levels 1, 3 and 6 beside
 * KMZ and the ZIP by the native `CompressionStream` (as the page's worker writes them), size and time side by side (how `ZIP_LEVEL` was chosen,
 * and why "Download all" compresses natively where it can). Last, how long a 300 MB zip bomb takes to be refused (the unit tests prove it is never
 * inflated).
 */
import { generateTakeout, makeZipBomb } from '@placeport/testkit';
import { unzipSync } from 'fflate';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32 as zlibCrc32, inflateRawSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import {
  eachListFile,
  listParts,
  OUTPUT_FORMATS,
  writeListFiles,
  writeListFilesAsync,
  isOutputFormat,
  type ListMeta,
} from '../src/core/formats/output.js';
import { buildKmz } from '../src/core/formats/kmz.js';
import { zipFiles, zipFilesAsync, ZIP_LEVEL, type DeflateLevel } from '../src/core/formats/zip.js';
import { buildKml, KML_DOCUMENT_NAME, type MappedPlace } from '../src/core/kml.js';
import type { Inflate } from '../src/core/archive.js';
import { readZipDirectory, readZipEntry } from '../src/core/zip-directory.js';
import { readArchive } from '../src/inspect.js';
import { convertLists } from '../src/pipeline.js';

const SIZES = [10_000, 100_000];
const RUNS = 5;
/** The DEFLATE levels whose size and time are printed side by side for KMZ and the run's ZIP. */
const DEFLATE_LEVELS: readonly DeflateLevel[] = [1, 3, 6];
/** The size whose converted places the writers are measured on. */
const WRITE_SIZE = 100_000;

interface Measurement {
  wallMs: number;
  cpuMs: number;
  converted: number;
  maxRssMb: number;
}

function archiveOf(places: number): Uint8Array {
  const want = Math.round(places * 0.6);
  const favourite = Math.round(places * 0.3);
  return generateTakeout({
    seed: 2026,
    coordinatesInUrls: true,
    lists: [
      { name: 'Want to go', places: want },
      { name: 'Favourite places', places: favourite },
      { name: 'Starred places', places: places - want - favourite },
    ],
  }).zip;
}

/** Node's zlib, as the CLI inflates (`apps/cli/src/inflate.ts`); it checks CRC-32 with zlib's too. */
const zlibInflate: Inflate = (data, size) =>
  inflateRawSync(data, { maxOutputLength: size, chunkSize: Math.max(64, size + 1) });

/** What a measuring process runs: the converter or its floor, each with fflate's inflate or zlib's. */
const MEASURES = ['converter', 'floor', 'converter-zlib', 'floor-zlib'] as const;
type MeasureMode = (typeof MEASURES)[number];

async function measure(mode: MeasureMode, file: string): Promise<Measurement> {
  const zip = new Uint8Array(readFileSync(file));
  const cpu = process.cpuUsage();
  const started = performance.now();
  let converted = 0;
  if (mode === 'floor') {
    const files = unzipSync(zip, { filter: (f) => f.name.toLowerCase().endsWith('.csv') });
    const decoder = new TextDecoder();
    for (const bytes of Object.values(files)) {
      converted += Papa.parse(decoder.decode(bytes), { skipEmptyLines: 'greedy' }).data.length;
    }
  } else if (mode === 'floor-zlib') {
    const decoder = new TextDecoder();
    for (const entry of readZipDirectory(zip)) {
      if (!entry.name.toLowerCase().endsWith('.csv')) continue;
      const text = decoder.decode(readZipEntry(zip, entry, zlibInflate, (d) => zlibCrc32(d)));
      converted += Papa.parse(text, { skipEmptyLines: 'greedy' }).data.length;
    }
  } else {
    // As the CLI: zlib's inflate, and zlib's CRC-32 for the check of each list's bytes.
    const inflate =
      mode === 'converter-zlib'
        ? { inflate: zlibInflate, crc32: (d: Uint8Array) => zlibCrc32(d) }
        : {};
    const results = await convertLists(readArchive(zip, inflate));
    converted = results.reduce((sum, result) => sum + result.stats.converted, 0);
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    converted,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/** A converted list as the writers take it, saved so every measuring process starts from the same places. */
interface ConvertedList {
  meta: ListMeta;
  places: MappedPlace[];
}

/** Converts the archive once and keeps what the writers need: each list and its placed places. */
async function convertedLists(zip: Uint8Array): Promise<ConvertedList[]> {
  const results = await convertLists(readArchive(zip));
  return results.map((result) => ({
    meta: {
      name: result.name,
      outputName: result.outputName,
      ...(result.description ? { description: result.description } : {}),
    },
    places: result.places
      .filter((place): place is MappedPlace => place.coordinates !== undefined)
      .map(({ reason: _reason, ...place }) => place),
  }));
}

interface WriteMeasurement extends Measurement {
  files: number;
  /** Bytes written (text as UTF-8; the ZIP's size for `zip`). */
  bytes: number;
  /** RSS with the places loaded, before writing: the writer's own peak is above it. */
  loadedRssMb: number;
  /** Heap the output holds once written (after a GC): every file's text, or only the ZIP's chunks. */
  heldMb: number;
}

/** The saved places, read in a frame of its own so the JSON text is garbage once it returns. */
function loadLists(file: string): ConvertedList[] {
  return JSON.parse(readFileSync(file, 'utf8')) as ConvertedList[];
}

/**
 * Writes every list of the saved places in one format (`writeListFiles`, all files kept as a run keeps
 * them), or, for `zip`, streams every list's KML files into one ZIP as "Download all" does
 * (`zipFilesAsync` over a generator, with Node's `CompressionStream`); `zip@1` and the like use
 * `zipFiles`, fflate's DEFLATE at that level.
 */
async function measureWrite(mode: string, file: string): Promise<WriteMeasurement> {
  const lists = loadLists(file);
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  gc();
  gc();
  const loadedRssMb = process.memoryUsage().rss / 1024 / 1024;
  const loadedHeap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let data: Array<string | Uint8Array>;
  let converted = 0;
  let files = 0;
  // `zip@3`, `kmz@1`: the same output at another DEFLATE level.
  const [base, levelText] = mode.split('@');
  const level = levelText === undefined ? undefined : (Number(levelText) as DeflateLevel);
  if (base === 'zip') {
    function* kmlFiles() {
      for (const list of lists) {
        for (const part of eachListFile(list.meta, list.places, 'kml')) {
          files += 1;
          converted += part.placemarks;
          yield part;
        }
      }
    }
    data =
      level === undefined
        ? await zipFilesAsync(kmlFiles(), { CompressionStream: globalThis.CompressionStream })
        : zipFiles(kmlFiles(), { level });
  } else if (base === 'kmz' && level !== undefined) {
    // What `writeListFiles(…, 'kmz')` writes, at the level asked for.
    data = [];
    for (const list of lists) {
      for (const part of listParts(list.meta, list.places, 'kmz')) {
        const folder = {
          name: list.meta.name,
          ...(list.meta.description ? { description: list.meta.description } : {}),
        };
        data.push(buildKmz(buildKml(part.places, KML_DOCUMENT_NAME, folder), { level }));
        files += 1;
        converted += part.placemarks;
      }
    }
  } else if (base === 'kmz-native') {
    // What the page's worker writes (`listFilesAsync(…, 'kmz')`): each KMZ by Node's CompressionStream.
    data = [];
    const options = { CompressionStream: globalThis.CompressionStream };
    for (const list of lists) {
      for (const part of await writeListFilesAsync(
        list.meta,
        list.places,
        'kmz',
        undefined,
        options,
      )) {
        data.push(part.data);
        files += 1;
        converted += part.placemarks;
      }
    }
  } else if (isOutputFormat(mode)) {
    const parts = lists.flatMap((list) => writeListFiles(list.meta, list.places, mode));
    data = parts.map((part) => part.data);
    files = parts.length;
    for (const part of parts) converted += part.placemarks;
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  gc();
  gc();
  const heldMb =
    (process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - loadedHeap) /
    1024 /
    1024;
  const bytes = data.reduce(
    (sum, item) => sum + (typeof item === 'string' ? Buffer.byteLength(item) : item.length),
    0,
  );
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    converted,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    files,
    bytes,
    loadedRssMb,
    heldMb,
  };
}

function spawnMeasure<T = Measurement>(mode: string, file: string): T {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, mode, file],
    { encoding: 'utf8', maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(out) as T;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Times each output format, and one ZIP of every KML file, on the places the converter placed, each in
 * fresh processes that load the same saved places; prints the ratio of each to the unzip + parse floor.
 */
async function benchWriters(
  size: number,
  archive: string,
  dir: string,
  floor: Pick<Measurement, 'wallMs' | 'cpuMs' | 'maxRssMb'>,
  converter: Pick<Measurement, 'wallMs' | 'cpuMs'>,
): Promise<void> {
  const placesFile = path.join(dir, `places-${size}.json`);
  const lists = await convertedLists(new Uint8Array(readFileSync(archive)));
  writeFileSync(placesFile, JSON.stringify(lists));
  const placed = lists.reduce((sum, list) => sum + list.places.length, 0);
  console.log(
    `writing the ${fmt(placed)} converted places (${lists.length} lists), each run in a fresh process that loads them first:`,
  );
  /** Medians of `RUNS` fresh processes writing in `mode`, checked to have written every place. */
  const medians = (mode: string) => {
    const runs = Array.from({ length: RUNS }, () =>
      spawnMeasure<WriteMeasurement>(mode, placesFile),
    );
    if (runs.some((run) => run.converted !== placed)) {
      throw new Error(`expected ${placed} places written in ${mode}`);
    }
    return {
      wall: median(runs.map((r) => r.wallMs)),
      cpu: median(runs.map((r) => r.cpuMs)),
      peak: Math.max(...runs.map((r) => r.maxRssMb)),
      loaded: median(runs.map((r) => r.loadedRssMb)),
      held: median(runs.map((r) => r.heldMb)),
      files: runs[0]!.files,
      mb: runs[0]!.bytes / 1024 / 1024,
    };
  };
  for (const mode of [...OUTPUT_FORMATS, 'zip'] as const) {
    const { wall, cpu, peak, loaded, held, files, mb } = medians(mode);
    const label = mode === 'zip' ? 'ZIP of all KML' : mode.toUpperCase();
    console.log(
      `  ${label.padEnd(14)} ${fmt(wall)} ms wall / ${fmt(cpu)} ms CPU, ${files} files, ` +
        `${mb.toFixed(1)} MB, peak ${fmt(peak)} MB (${fmt(loaded)} MB with the places loaded, ${fmt(held)} MB held after) ` +
        `| ratio to floor ${(wall / floor.wallMs).toFixed(2)} wall, ${(cpu / floor.cpuMs).toFixed(2)} CPU, ` +
        `${(peak / floor.maxRssMb).toFixed(2)} peak`,
    );
    if (mode === 'kml') {
      // The converter's own run writes every list's KML once: its floor with that one write.
      console.log(
        `  converter / (floor + this KML write): ${fmt(converter.wallMs)} / ${fmt(floor.wallMs + wall)} ms = ` +
          `${(converter.wallMs / (floor.wallMs + wall)).toFixed(2)} wall, ` +
          `${(converter.cpuMs / (floor.cpuMs + cpu)).toFixed(2)} CPU`,
      );
    }
  }
  console.log(
    `DEFLATE level, size and time side by side (KMZ, and the ZIP without CompressionStream, use fflate's level ${ZIP_LEVEL}):`,
  );
  const cell = (label: string, mode: string) => {
    const { wall, cpu, mb } = medians(mode);
    return (
      `${label} ${mb.toFixed(2)} MB, ${fmt(wall)} ms wall / ${fmt(cpu)} ms CPU ` +
      `(${(wall / floor.wallMs).toFixed(2)} / ${(cpu / floor.cpuMs).toFixed(2)} × floor)`
    );
  };
  for (const level of DEFLATE_LEVELS) {
    const cells = [cell('KMZ', `kmz@${level}`), cell('ZIP of all KML', `zip@${level}`)];
    console.log(`  fflate level ${level}: ${cells.join(' | ')}`);
  }
  console.log(
    `  native CompressionStream('deflate-raw'), zlib's level 6 (the page's worker): ${cell('KMZ', 'kmz-native')} | ${cell('ZIP of all KML', 'zip')}`,
  );
}

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2);
  if ((MEASURES as readonly string[]).includes(mode ?? '') && file) {
    process.stdout.write(JSON.stringify(await measure(mode as MeasureMode, file)));
    return;
  }
  if (mode && file) {
    process.stdout.write(JSON.stringify(await measureWrite(mode, file)));
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'placeport-bench-'));
  try {
    console.log(
      `converter benchmark: median of ${RUNS} runs, each in a fresh process; peak = max RSS`,
    );
    for (const size of SIZES) {
      const archive = path.join(dir, `takeout-${size}.zip`);
      const zip = archiveOf(size);
      writeFileSync(archive, zip);
      // The lists asked for, plus the starred places of the small `Saved Places.json` the generator
      // writes beside them (also a list since the converter reads that file).
      const places = readArchive(zip).reduce((sum, list) => sum + list.rowCount, 0);
      // Paired runs, the order flipped each round, so a machine that slows down slows both sides.
      const runs = (converter: MeasureMode, floor: MeasureMode) => {
        const pairs = { conv: [] as Measurement[], floor: [] as Measurement[] };
        for (let round = 0; round < RUNS; round += 1) {
          const order =
            round % 2 === 0 ? (['conv', 'floor'] as const) : (['floor', 'conv'] as const);
          for (const side of order) {
            pairs[side].push(spawnMeasure(side === 'conv' ? converter : floor, archive));
          }
        }
        return pairs;
      };
      const report = (label: string, conv: Measurement[], floor: Measurement[]) => {
        if (conv.some((run) => run.converted !== places))
          throw new Error(`expected ${places} places converted`);
        const [cw, cc, fw, fc] = [
          median(conv.map((r) => r.wallMs)),
          median(conv.map((r) => r.cpuMs)),
          median(floor.map((r) => r.wallMs)),
          median(floor.map((r) => r.cpuMs)),
        ];
        const floorPeak = Math.max(...floor.map((r) => r.maxRssMb));
        console.log(
          `${fmt(size)} places${places === size ? '' : ` (+${fmt(places - size)} starred)`}${label}: converter ${fmt(cw)} ms wall / ${fmt(cc)} ms CPU, ${fmt((places / cw) * 1000)} places/s, ` +
            `peak ${fmt(Math.max(...conv.map((r) => r.maxRssMb)))} MB | floor ${fmt(fw)} ms wall / ${fmt(fc)} ms CPU, ` +
            `peak ${fmt(floorPeak)} MB | ratio ${(cw / fw).toFixed(2)} wall, ${(cc / fc).toFixed(2)} CPU`,
        );
        return {
          floor: { wallMs: fw, cpuMs: fc, maxRssMb: floorPeak },
          converter: { wallMs: cw, cpuMs: cc },
        };
      };
      const fflate = runs('converter', 'floor');
      const measured = report('', fflate.conv, fflate.floor);
      const zlib = runs('converter-zlib', 'floor-zlib');
      report(", both inflating with Node's zlib (as the CLI)", zlib.conv, zlib.floor);
      if (size === WRITE_SIZE) {
        await benchWriters(size, archive, dir, measured.floor, measured.converter);
      }
    }
    const bomb = makeZipBomb(300 * 1024 * 1024);
    const refusals = Array.from({ length: RUNS }, () => {
      const started = performance.now();
      try {
        readArchive(bomb);
      } catch {
        return performance.now() - started;
      }
      throw new Error('the zip bomb was not refused');
    });
    console.log(`300 MB zip bomb refused in ${median(refusals).toFixed(2)} ms (median of ${RUNS})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
