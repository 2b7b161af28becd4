/**
 * The initial download of the page: the scripts, module preloads and style sheets `index.html`
 * references, each gzipped with node:zlib (level 9, as a static server would precompress them).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One asset of the first screen and its sizes in bytes. */
export interface InitialAsset {
  path: string;
  kind: 'js' | 'css';
  bytes: number;
  gzipped: number;
}

const REFERENCE =
  /<(?:script[^>]*\ssrc|link[^>]*\srel="(?:stylesheet|modulepreload)"[^>]*\shref)="([^"]+)"/g;

/** The JS and CSS `dist/index.html` loads before anything else, with their gzipped sizes. */
export async function initialAssets(dist: string): Promise<InitialAsset[]> {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const paths = [...html.matchAll(REFERENCE)].map((match) => match[1]!);
  const assets: InitialAsset[] = [];
  for (const path of new Set(paths)) {
    if (!/\.(js|css)$/.test(path)) continue;
    const content = await readFile(join(dist, path.replace(/^\//, '')));
    assets.push({
      path,
      kind: path.endsWith('.css') ? 'css' : 'js',
      bytes: content.length,
      gzipped: gzipSync(content, { level: 9 }).length,
    });
  }
  return assets;
}
