import { writtenFromUnits, randomPosition, type WrittenLatLng } from './coordinates.js';
import { randomIdentity } from './ftid.js';
import { ADDRESSES, DROPPED_PIN_TITLE } from './pools.js';
import type { Random } from './random.js';
import {
  commentText,
  noteText,
  titleText,
  type CommentStyle,
  type NoteStyle,
  type TitleStyle,
} from './text.js';
import type { GeneratedPlace, PlaceListKind } from './types.js';
import {
  addressUrl,
  centreUrl,
  cidUrl,
  droppedPinUrl,
  ftidUrl,
  ludocidUrl,
  pinUrl,
  ZERO_URL,
} from './urls.js';

/** What to generate for one row: its URL kind and how each text cell is written. */
export interface Recipe {
  kind: PlaceListKind;
  title: TitleStyle;
  note: NoteStyle;
  comment: CommentStyle;
}

/** The map centre of a `centre` URL lies this many 10^-7 degrees from the pin, at least/at most. */
const CENTRE_OFFSET_MIN = 2_000;
const CENTRE_OFFSET_SPAN = 4_000;

/** A view centre tens of metres from the pin, written with 7 decimals, still in range. */
function nearbyCentre(pin: WrittenLatLng, random: Random): WrittenLatLng {
  const offset = () =>
    (CENTRE_OFFSET_MIN + random.int(CENTRE_OFFSET_SPAN)) * (random.chance(0.5) ? 1 : -1);
  const latUnits = Math.round(pin.lat * 1e7) + offset();
  let lngUnits = Math.round(pin.lng * 1e7) + offset();
  if (lngUnits >= 1_800_000_000) lngUnits -= 3_600_000_000;
  if (lngUnits < -1_800_000_000) lngUnits += 3_600_000_000;
  return writtenFromUnits(latUnits, lngUnits, 7);
}

function latLng(position: WrittenLatLng): { lat: number; lng: number } {
  return { lat: position.lat, lng: position.lng };
}

/** Generates one place row from its recipe. */
export function makePlace(recipe: Recipe, random: Random): GeneratedPlace {
  const note = noteText(recipe.note, random);
  const comment = commentText(recipe.comment, random);
  if (recipe.kind === 'search') {
    const pin = randomPosition(random);
    const title = random.chance(0.7) ? DROPPED_PIN_TITLE : '';
    const url = droppedPinUrl(pin, random.chance(0.3));
    return { title, note, url, comment, kind: 'search', expected: latLng(pin) };
  }
  const title = titleText(recipe.title, random);
  if (recipe.kind === 'zero') return { title, note, url: ZERO_URL, comment, kind: 'zero' };
  if (recipe.kind === 'no-link') return { title, note, url: '', comment, kind: 'no-link' };

  const { ftid, cid, position } = randomIdentity(random);
  const resolvable = latLng(position);
  switch (recipe.kind) {
    case 'ftid':
      return {
        title,
        note,
        url: ftidUrl(title, ftid),
        comment,
        kind: 'ftid',
        resolvable,
        ftid,
        cid,
      };
    case 'pin': {
      const url = pinUrl(title, ftid, position);
      return {
        title,
        note,
        url,
        comment,
        kind: 'pin',
        expected: resolvable,
        resolvable,
        ftid,
        cid,
      };
    }
    case 'centre': {
      const centre = nearbyCentre(position, random);
      const url = centreUrl(title, ftid, position, centre);
      const expected = resolvable;
      const view = latLng(centre);
      return {
        title,
        note,
        url,
        comment,
        kind: 'centre',
        expected,
        resolvable,
        centre: view,
        ftid,
        cid,
      };
    }
    case 'q-address': {
      const url = addressUrl(random.pick(ADDRESSES), ftid);
      return { title, note, url, comment, kind: 'q-address', resolvable, ftid, cid };
    }
    case 'ludocid':
      return {
        title,
        note,
        url: ludocidUrl(title, cid),
        comment,
        kind: 'ludocid',
        resolvable,
        cid,
      };
    case 'cid':
      return { title, note, url: cidUrl(cid), comment, kind: 'cid', resolvable, cid };
  }
}
