import { CsvWriter, type CsvLayout } from './csv-file.js';
import { makePlace } from './place.js';
import { DESCRIPTIONS } from './pools.js';
import { WeightTable, type Random } from './random.js';
import { COORDINATE_KIND_WEIGHTS, DEFAULT_KIND_WEIGHTS, kindTable, RecipePlan } from './recipes.js';
import type { GeneratedList, GeneratedPlace, HeaderVariant, ListSpec } from './types.js';

/** Where Takeout puts saved lists. */
export const SAVED_FOLDER = 'Takeout/Saved';

const HEADER_VARIANTS = new WeightTable<HeaderVariant>([
  ['classic', 70],
  ['tags', 20],
  ['2022', 10],
]);

/** Chances of the layout quirks for a list that does not fix them. */
const DESCRIPTION_CHANCE = 0.15;
const BOM_CHANCE = 0.1;
const CRLF_CHANCE = 0.1;

/** What a place list needs beyond its spec. */
export interface PlaceListContext {
  random: Random;
  quirks: boolean;
  coordinatesInUrls: boolean;
  /** A place of the first list, copied into this one when quirks are on. */
  shared?: GeneratedPlace;
}

/** The ZIP path of a list, checked so one spec cannot create folders by accident. */
export function listPath(spec: ListSpec): string {
  if (spec.name === '' || spec.name.includes('/')) {
    throw new RangeError(
      `list name must be non-empty and hold no "/": ${JSON.stringify(spec.name)}`,
    );
  }
  if (!Number.isSafeInteger(spec.places) || spec.places < 0) {
    throw new RangeError(`places must be an integer ≥ 0, got ${spec.places}`);
  }
  return `${spec.folder ?? SAVED_FOLDER}/${spec.name}${spec.extension ?? '.csv'}`;
}

function layoutFor(spec: ListSpec, random: Random): CsvLayout {
  const header = spec.header ?? HEADER_VARIANTS.draw(random);
  const description =
    spec.description === undefined
      ? random.chance(DESCRIPTION_CHANCE)
        ? random.pick(DESCRIPTIONS)
        : undefined
      : spec.description || undefined;
  const bom = spec.bom ?? random.chance(BOM_CHANCE);
  const crlf = spec.crlf ?? random.chance(CRLF_CHANCE);
  return description === undefined ? { header, bom, crlf } : { header, description, bom, crlf };
}

/** Generates one place list: its layout, its rows, and the CSV text and bytes. */
export function buildPlaceList(spec: ListSpec, context: PlaceListContext): GeneratedList {
  const { random, quirks } = context;
  const path = listPath(spec);
  const layout = layoutFor(spec, random);
  const weights =
    spec.kinds ?? (context.coordinatesInUrls ? COORDINATE_KIND_WEIGHTS : DEFAULT_KIND_WEIGHTS);
  const plan = new RecipePlan(spec.places, kindTable(weights), quirks, random);
  const writer = new CsvWriter(layout, spec.places, quirks, random);
  const places: GeneratedPlace[] = [];
  for (let row = 0; row < spec.places; row++) {
    const recipe = plan.at(row);
    const place =
      recipe.shared && context.shared ? { ...context.shared } : makePlace(recipe, random);
    if (layout.header === '2022') place.comment = '';
    places.push(place);
    writer.add(place);
  }
  const written = writer.finish();
  return { path, name: spec.name, ...layout, places, isPlaceList: true, ...written };
}
