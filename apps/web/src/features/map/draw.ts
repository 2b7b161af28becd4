/**
 * Paints the map on two stacked canvases: the sea and the land on the lower one, the points on the
 * upper one. Every stage goes a slice at a time (see `slices.ts`): measuring where the points are,
 * the land masses, then projecting the points. Points are stamped as pixels into one image that is
 * shown after each slice: a canvas path of thousands of circles costs the browser far more to paint
 * than the path took to build, and that cost lands on the page's thread as a long task.
 */
import { geoPath, type GeoProjection } from 'd3-geo';
import { COAST_COLOUR, LAND_COLOUR, POINT_RGB, RING_RGB, SEA_COLOUR } from './colours';
import { buildGrid, type PointGrid } from './grid';
import { addToBox, boxOf, emptyBox, projectionForBox } from './projection';
import { inSlices, nextFrame, type SliceOptions } from './slices';
import { LAND_POLYGONS } from './world';

/** How near (CSS pixels) the pointer must come to a point to show its name. */
export const HIT_RADIUS = 8;

/** Points measured per slice: measuring is far cheaper than projecting. */
const MEASURE_SLICE = 50_000;

/** The map's height for a width: about half as high as wide, within reason on phones and desktops. */
export function mapHeight(width: number): number {
  return Math.round(Math.min(420, Math.max(200, width * 0.55)));
}

/** Dots get smaller as there are more of them, so dense areas stay readable (CSS pixels). */
export function pointRadius(count: number): number {
  if (count <= 1_000) return 4;
  if (count <= 10_000) return 3;
  if (count <= 50_000) return 2;
  return 1;
}

/** Projects points `start` to `end` of `lng,lat` pairs into `xy` (CSS pixels). */
export function projectInto(
  projection: GeoProjection,
  coordinates: ArrayLike<number>,
  xy: Float32Array,
  start: number,
  end: number,
): void {
  const point: [number, number] = [0, 0];
  for (let i = start; i < end; i++) {
    point[0] = coordinates[2 * i]!;
    point[1] = coordinates[2 * i + 1]!;
    const at = projection(point);
    xy[2 * i] = at ? at[0] : Number.NaN;
    xy[2 * i + 1] = at ? at[1] : Number.NaN;
  }
}

/** The pixels of one dot, as `dx, dy` pairs from its centre pixel: its disc, and a ring around it. */
export interface DotStamp {
  fill: Int32Array;
  ring: Int32Array;
}

/** A dot of `radius` device pixels; with a ring one pixel wide when `ringed`. */
export function dotStamp(radius: number, ringed: boolean): DotStamp {
  const fill: number[] = [];
  const ring: number[] = [];
  const inner = (radius + 0.5) ** 2;
  const outer = (radius + 1.5) ** 2;
  for (let dy = -radius - 1; dy <= radius + 1; dy++) {
    for (let dx = -radius - 1; dx <= radius + 1; dx++) {
      const distance = dx * dx + dy * dy;
      if (distance <= inner) fill.push(dx, dy);
      else if (ringed && distance <= outer) ring.push(dx, dy);
    }
  }
  return { fill: Int32Array.from(fill), ring: Int32Array.from(ring) };
}

/** A colour as one pixel of an `ImageData` seen through a `Uint32Array` (in the machine's byte order). */
export function pixelValue([red, green, blue]: readonly number[]): number {
  return new Uint32Array(Uint8ClampedArray.from([red!, green!, blue!, 255]).buffer)[0]!;
}

const POINT_PIXEL = pixelValue(POINT_RGB);
const RING_PIXEL = pixelValue(RING_RGB);

/**
 * Stamps points `start` to `end` (CSS pixel positions in `xy`) into `pixels`, an image `width`
 * device pixels wide, `ratio` device pixels per CSS pixel. The centre of a dot is the pixel its
 * position falls in. A ring never covers another dot's disc, so each dot's centre keeps the point
 * colour, whatever is drawn after it.
 */
export function stampDots(
  pixels: Uint32Array,
  width: number,
  xy: Float32Array,
  start: number,
  end: number,
  ratio: number,
  stamp: DotStamp,
): void {
  const height = pixels.length / width;
  const put = (offsets: Int32Array, x: number, y: number, value: number, over: boolean) => {
    for (let k = 0; k < offsets.length; k += 2) {
      const px = x + offsets[k]!;
      const py = y + offsets[k + 1]!;
      if (px < 0 || py < 0 || px >= width || py >= height) continue;
      const at = py * width + px;
      if (over || pixels[at] !== POINT_PIXEL) pixels[at] = value;
    }
  };
  for (let i = start; i < end; i++) {
    const x = xy[2 * i]!;
    const y = xy[2 * i + 1]!;
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    const cx = Math.floor(x * ratio);
    const cy = Math.floor(y * ratio);
    put(stamp.ring, cx, cy, RING_PIXEL, false);
    put(stamp.fill, cx, cy, POINT_PIXEL, true);
  }
}

/** The two canvases of the map: sea and land below, points above. */
export interface MapCanvases {
  base: HTMLCanvasElement;
  dots: HTMLCanvasElement;
}

function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  return canvas.getContext?.('2d') ?? null;
}

/**
 * Draws `coordinates` (`lng,lat` pairs) at `width` × `height` CSS pixels, sharp on high-density
 * screens. Resolves the points' grid for the pointer lookup once the last point is drawn, or null
 * when `cancelled` (a newer drawing took over). Canvases without a 2D context (a test's DOM) are
 * only measured.
 */
export async function drawMap(
  { base, dots }: MapCanvases,
  coordinates: Float64Array,
  width: number,
  height: number,
  options: SliceOptions = {},
): Promise<PointGrid | null> {
  const count = Math.floor(coordinates.length / 2);
  const parts = emptyBox();
  const measured = await inSlices(count, (start, end) => addToBox(parts, coordinates, start, end), {
    ...options,
    size: MEASURE_SLICE,
  });
  // Each stage starts on a frame of its own: what one frame paints stays small.
  const nextStage = async () => {
    await (options.pause ?? nextFrame)();
    return !(options.cancelled?.() ?? false);
  };
  if (!measured || !(await nextStage())) return null;
  const projection = projectionForBox(boxOf(parts), width, height);

  // Resized only now, so the last picture stays while the points are measured.
  const ratio = (typeof window === 'undefined' ? 1 : window.devicePixelRatio) || 1;
  const pixelWidth = Math.max(1, Math.round(width * ratio));
  const pixelHeight = Math.max(1, Math.round(height * ratio));
  for (const canvas of [base, dots]) {
    canvas.width = pixelWidth;
    canvas.height = pixelHeight;
  }
  const land = context2d(base);
  if (land) {
    land.setTransform(ratio, 0, 0, ratio, 0, 0);
    const path = geoPath(projection, land);
    land.beginPath();
    path({ type: 'Sphere' });
    land.fillStyle = SEA_COLOUR;
    land.fill();
    land.fillStyle = LAND_COLOUR;
    land.strokeStyle = COAST_COLOUR;
    land.lineWidth = 0.75;
    if (!(await nextStage())) return null;
    const outlined = await inSlices(
      LAND_POLYGONS.length,
      (start, end) => {
        for (let i = start; i < end; i++) {
          land.beginPath();
          path(LAND_POLYGONS[i]!);
          land.fill();
          land.stroke();
        }
      },
      { ...options, size: LAND_POLYGONS.length, step: 1 },
    );
    if (!outlined || !(await nextStage())) return null;
  }

  const shown = context2d(dots);
  const image = shown?.createImageData(pixelWidth, pixelHeight) ?? null;
  const pixels = image ? new Uint32Array(image.data.buffer) : null;
  const radius = pointRadius(count);
  const stamp = dotStamp(Math.max(1, Math.round(radius * ratio)), radius >= 3);
  const xy = new Float32Array(count * 2);
  const drawn = await inSlices(
    count,
    (start, end) => {
      projectInto(projection, coordinates, xy, start, end);
      if (pixels) stampDots(pixels, pixelWidth, xy, start, end, ratio, stamp);
    },
    options,
    () => {
      if (shown && image) shown.putImageData(image, 0, 0);
    },
  );
  return drawn ? buildGrid(xy, count, width, height, HIT_RADIUS * 2) : null;
}
