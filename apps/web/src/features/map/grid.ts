/**
 * Finds the point under the pointer among 100,000 without looking at each: points are bucketed
 * into square cells once (a counting sort into two typed arrays), and a lookup reads only the
 * cells within reach.
 */

/** Points bucketed by cell: the indices of cell `c` are `order[starts[c]]` up to `order[starts[c + 1]]`. */
export interface PointGrid {
  /** Side of a cell in CSS pixels. */
  cell: number;
  columns: number;
  rows: number;
  starts: Int32Array;
  order: Int32Array;
  /** Positions as drawn: point `i` at `xy[2 * i]`, `xy[2 * i + 1]`. */
  xy: Float32Array;
}

function cellOf(grid: Pick<PointGrid, 'cell' | 'columns' | 'rows'>, x: number, y: number): number {
  const column = Math.min(grid.columns - 1, Math.max(0, Math.floor(x / grid.cell)));
  const row = Math.min(grid.rows - 1, Math.max(0, Math.floor(y / grid.cell)));
  return row * grid.columns + column;
}

/**
 * Buckets the first `count` points of `xy` on a `width` × `height` area into cells of `cell` pixels
 * (points outside the area go to the nearest edge cell).
 */
export function buildGrid(
  xy: Float32Array,
  count: number,
  width: number,
  height: number,
  cell: number,
): PointGrid {
  const columns = Math.max(1, Math.ceil(width / cell));
  const rows = Math.max(1, Math.ceil(height / cell));
  const shape = { cell, columns, rows };
  const starts = new Int32Array(columns * rows + 1);
  const cells = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const c = cellOf(shape, xy[2 * i]!, xy[2 * i + 1]!);
    cells[i] = c;
    starts[c + 1]! += 1;
  }
  for (let c = 0; c < columns * rows; c++) starts[c + 1]! += starts[c]!;
  const next = starts.slice(0, columns * rows);
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[next[cells[i]!]!++] = i;
  return { ...shape, starts, order, xy };
}

/**
 * The index of the point nearest to (`x`, `y`) within `radius` pixels, or -1. Of points equally
 * near, the one drawn last (on top) wins.
 */
export function nearestPoint(grid: PointGrid, x: number, y: number, radius: number): number {
  const { cell, columns, rows, starts, order, xy } = grid;
  const first = (value: number, limit: number) =>
    Math.min(limit - 1, Math.max(0, Math.floor(value / cell)));
  const column0 = first(x - radius, columns);
  const column1 = first(x + radius, columns);
  const row0 = first(y - radius, rows);
  const row1 = first(y + radius, rows);
  let best = -1;
  let bestDistance = radius * radius;
  for (let row = row0; row <= row1; row++) {
    for (let column = column0; column <= column1; column++) {
      const c = row * columns + column;
      for (let k = starts[c]!; k < starts[c + 1]!; k++) {
        const i = order[k]!;
        const dx = xy[2 * i]! - x;
        const dy = xy[2 * i + 1]! - y;
        const distance = dx * dx + dy * dy;
        if (distance < bestDistance || (distance === bestDistance && i > best)) {
          best = i;
          bestDistance = distance;
        }
      }
    }
  }
  return best;
}
