/**
 * The built `placeport` looking up a place whose real Google page (a full Dutch page captured by
 * another project, served unchanged by the fake Google) names it: the exact pin, from the page,
 * with or without a Places API key.
 */
import {
  PLACES_API_FAILURES,
  REAL_PLACE_PAGES,
  startFakeGoogle,
  type FakeGoogle,
} from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKmlFile, run, tempFolder } from './support.js';
import type { CliSummary } from '../src/summary.js';

const REAL = REAL_PLACE_PAGES[0]!;
/** Where the page puts the place (the fixtures' README), as KML writes it. */
const RAI = [REAL.point.lng, REAL.point.lat];

describe('placeport convert on a link whose real Google page names it', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;
  let archive: string;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('real-pages'));
    google = await startFakeGoogle();
    google.addRedirect(
      REAL.shortLink,
      `https://www.google.com/maps/place/RAI/data=!4m2!3m1!1s${REAL.ftid}?utm_source=mstt_1`,
    );
    const csv = `Title,Note,URL,Comment\nRAI,,${REAL.link},\nRAI (shared),,${REAL.shortLink},\n`;
    archive = path.join(dir, 'takeout.zip');
    await writeFile(archive, zipSync({ 'Takeout/Saved/Bucharest.csv': strToU8(csv) }));
  });

  afterAll(async () => {
    await google.close();
    await remove();
  });

  async function convert(name: string, extra: string[] = []) {
    const home = path.join(dir, name);
    await mkdir(home, { recursive: true });
    const out = path.join(home, 'out');
    const result = await run(['convert', archive, '--out', out, '--json', '--no-cache', ...extra], {
      google: google.url,
      cacheHome: path.join(home, 'cache'),
    });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists[0]).toMatchObject({ name: 'Bucharest', converted: 2, unplaced: {} });
    return readKmlFile(summary.lists[0]!.files[0]!);
  }

  it('gives the exact pin from the page without a key', async () => {
    google.setPlace(REAL.cid, {});
    expect(await convert('no-key')).toEqual([
      { name: 'RAI', lngLat: RAI },
      { name: 'RAI (shared)', lngLat: RAI },
    ]);
  });

  it.each(PLACES_API_FAILURES)(
    'with a key, the Places API answering %s falls back to the page',
    async (status, placesApi) => {
      google.setPlace(REAL.cid, { placesApi });
      google.clearRequests();
      const points = await convert(`key-${status}`, ['--google-maps-api-key', google.apiKey]);
      expect(points.map((point) => point.lngLat)).toEqual([RAI, RAI]);
      expect(google.count((request) => request.path.startsWith('/v1/places/'))).toBeGreaterThan(0);
      expect(google.count((request) => request.path.includes(REAL.ftid))).toBeGreaterThan(0);
    },
  );
});
