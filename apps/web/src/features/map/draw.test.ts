import { describe, expect, it } from 'vitest';
import { POINT_RGB, RING_RGB } from './colours';
import { dotStamp, mapHeight, pixelValue, pointRadius, stampDots } from './draw';

const POINT = pixelValue(POINT_RGB);
const RING = pixelValue(RING_RGB);

/** The image as rows of `.` (empty), `o` (dot) and `r` (ring). */
function picture(pixels: Uint32Array, width: number): string[] {
  const rows: string[] = [];
  for (let y = 0; y < pixels.length / width; y++) {
    let row = '';
    for (let x = 0; x < width; x++) {
      const value = pixels[y * width + x];
      row += value === POINT ? 'o' : value === RING ? 'r' : '.';
    }
    rows.push(row);
  }
  return rows;
}

describe('drawing the points', () => {
  it('packs a colour as the bytes r, g, b, a of an ImageData pixel', () => {
    const bytes = new Uint8ClampedArray(new Uint32Array([pixelValue([1, 2, 3])]).buffer);
    expect(Array.from(bytes)).toEqual([1, 2, 3, 255]);
  });

  it('stamps a round dot on the pixel the position falls in, with its ring', () => {
    const width = 9;
    const pixels = new Uint32Array(width * 9);
    stampDots(pixels, width, Float32Array.from([4.7, 4.2]), 0, 1, 1, dotStamp(2, true));
    expect(picture(pixels, width)).toEqual([
      '.........',
      '...rrr...',
      '..rooor..',
      '.rooooor.',
      '.rooooor.',
      '.rooooor.',
      '..rooor..',
      '...rrr...',
      '.........',
    ]);
  });

  it('never lets a ring cover another dot, so every centre keeps the point colour', () => {
    const width = 12;
    const pixels = new Uint32Array(width * 5);
    // The second dot's ring reaches into the first dot's disc (column 4), and leaves it be.
    stampDots(pixels, width, Float32Array.from([3, 2, 6, 2]), 0, 2, 1, dotStamp(1, true));
    expect(picture(pixels, width)).toEqual([
      '..rrrrrr....',
      '.roooooor...',
      '.roooooor...',
      '.roooooor...',
      '..rrrrrr....',
    ]);
  });

  it('scales positions to device pixels, skips unplaced points and clips at the edges', () => {
    const width = 6;
    const pixels = new Uint32Array(width * 4);
    const xy = Float32Array.from([1.6, 1.2, Number.NaN, 1, 2.9, 0.2]);
    stampDots(pixels, width, xy, 0, 3, 2, dotStamp(1, false));
    expect(picture(pixels, width)).toEqual(['....oo', '..oooo', '..ooo.', '..ooo.']);
  });

  it('sizes dots and the map to what they show', () => {
    expect([10, 5_000, 25_000, 100_000].map(pointRadius)).toEqual([4, 3, 2, 1]);
    expect([300, 640, 2000].map(mapHeight)).toEqual([200, 352, 420]);
  });
});
