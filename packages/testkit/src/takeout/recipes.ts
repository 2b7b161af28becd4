import type { Recipe } from './place.js';
import { WeightTable, type Random } from './random.js';
import {
  COMMENT_STYLES,
  NOTE_STYLES,
  QUIRK_NOTE_STYLES,
  QUIRK_TITLE_STYLES,
  TITLE_STYLES,
} from './text.js';
import type { PlaceListKind } from './types.js';

/** The URL mix of real exports: about 98% ftid links without coordinates, 2% dropped pins. */
export const DEFAULT_KIND_WEIGHTS: Readonly<Record<PlaceListKind, number>> = {
  ftid: 955,
  search: 20,
  pin: 5,
  centre: 5,
  ludocid: 5,
  cid: 3,
  'q-address': 3,
  zero: 2,
  'no-link': 2,
};

/** The mix when every URL must carry coordinates (benchmarks). */
export const COORDINATE_KIND_WEIGHTS: Readonly<Partial<Record<PlaceListKind, number>>> = {
  pin: 500,
  search: 400,
  centre: 100,
};

/** A weight table over URL kinds. */
export function kindTable(
  weights: Readonly<Partial<Record<PlaceListKind, number>>>,
): WeightTable<PlaceListKind> {
  return new WeightTable(Object.entries(weights) as Array<[PlaceListKind, number]>);
}

/** A recipe whose place, if the list is not the first, is copied from the first list. */
export interface PlannedRecipe extends Recipe {
  shared?: true;
}

function drawn(kind: PlaceListKind, random: Random): PlannedRecipe {
  return {
    kind,
    title: TITLE_STYLES.draw(random),
    note: NOTE_STYLES.draw(random),
    comment: COMMENT_STYLES.draw(random),
  };
}

/**
 * The recipes a list must contain when quirks are on, rarest-first kinds before text quirks:
 * one per kind, one per quirky title and note style, one comment and one shared place.
 */
function quirkRecipes(kinds: WeightTable<PlaceListKind>, random: Random): PlannedRecipe[] {
  const byWeight = kinds.keysByWeight();
  const forced = byWeight.map((kind) => drawn(kind, random));
  const named = byWeight.find((kind) => kind !== 'search');
  if (named === undefined) return forced;
  for (const title of QUIRK_TITLE_STYLES) forced.push({ ...drawn(named, random), title });
  for (const note of QUIRK_NOTE_STYLES) forced.push({ ...drawn(named, random), note });
  forced.push({ ...drawn(named, random), comment: 'text' });
  forced.push({ ...drawn(named, random), shared: true });
  return forced;
}

/**
 * Decides the recipe of every row without holding them all: the quirk recipes that fit (if asked)
 * sit at seeded distinct rows, every other row is drawn when asked for, in row order.
 */
export class RecipePlan {
  readonly #fixed = new Map<number, PlannedRecipe>();
  readonly #kinds: WeightTable<PlaceListKind>;
  readonly #random: Random;

  constructor(count: number, kinds: WeightTable<PlaceListKind>, quirks: boolean, random: Random) {
    this.#kinds = kinds;
    this.#random = random;
    const forced = quirks ? quirkRecipes(kinds, random).slice(0, count) : [];
    for (const recipe of forced) {
      let row = random.int(count);
      while (this.#fixed.has(row)) row = (row + 1) % count;
      this.#fixed.set(row, recipe);
    }
  }

  /** The recipe of row `row`; call once per row, in order. */
  at(row: number): PlannedRecipe {
    return this.#fixed.get(row) ?? drawn(this.#kinds.draw(this.#random), this.#random);
  }
}
