/**
 * Shared test data: a small archive's lists, ready-made states for every status, a fake worker
 * and a way to mount components with their own store.
 */
import { render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { type AppConfig, DEFAULT_CONFIG } from '../api/config';
import type { Api, CaptureOutcome, PaymentStatus } from '../api/client';
import { type AppServices, AppProvider } from '../app/context';
import { createEffects } from '../state/effects';
import type { PaymentNotes } from '../state/lastPayment';
import { createAppStore } from '../state/store';
import type { AppState, Archive, FileResult, Receipt, Status } from '../state/types';
import type { Converter } from '../worker/converter';
import type { ListSummary } from '../worker/types';

/** A list summary as the worker gives it: every place needing a lookup unless told otherwise. */
export function listSummary(
  fields: Pick<ListSummary, 'path' | 'name' | 'rowCount' | 'size'> & Partial<ListSummary>,
): ListSummary {
  return {
    kind: 'csv',
    outputName: fields.name,
    withCoordinates: 0,
    needsLookup: fields.rowCount,
    withoutLocation: 0,
    ...fields,
  };
}

export const LISTS: readonly ListSummary[] = [
  listSummary({
    path: 'Takeout/Saved/Want to go.csv',
    name: 'Want to go',
    rowCount: 40,
    size: 5_120,
  }),
  listSummary({
    path: 'Takeout/Saved/Favourite places.CSV',
    name: 'Favourite places',
    rowCount: 25,
    size: 3_000,
  }),
  listSummary({
    path: 'Takeout/Saved/Starred places.csv',
    name: 'Starred places',
    rowCount: 3,
    size: 512,
  }),
];

/** The reason the converter gives a CSV without the seed's columns (a list that cannot be converted). */
export const MISSING_COLUMNS_PROBLEM =
  'CSV file must contain "Title" and "URL" columns. Found columns: Name, Link';

/**
 * Lists as the worker tells them apart: places with and without coordinates in their links, one
 * of each in the singular, the starred places, places without a usable link, and a list that
 * cannot be converted.
 */
export const TRUTH_LISTS: readonly ListSummary[] = [
  listSummary({
    path: 'Takeout/Saved/Want to go.csv',
    name: 'Want to go',
    rowCount: 40,
    size: 5_120,
    withCoordinates: 3,
    needsLookup: 37,
  }),
  listSummary({
    path: 'Takeout/Maps (your places)/Saved Places.json',
    name: 'Saved Places',
    kind: 'starred',
    rowCount: 12,
    size: 4_096,
    withCoordinates: 12,
    needsLookup: 0,
  }),
  listSummary({
    path: 'Takeout/Saved/Day trip.csv',
    name: 'Day trip',
    rowCount: 4,
    size: 600,
    withCoordinates: 1,
    needsLookup: 1,
    withoutLocation: 1,
  }),
  listSummary({
    path: 'Takeout/Saved/Old export.csv',
    name: 'Old export',
    rowCount: 1,
    size: 40,
    withCoordinates: 0,
    needsLookup: 0,
    problem: MISSING_COLUMNS_PROBLEM,
  }),
];

/**
 * Twelve lists, more than the dialog shows without a filter: accented names, and "Want to go" in
 * two Takeout folders (an archive downloaded in parts).
 */
export const MANY_LISTS: readonly ListSummary[] = (
  [
    ['Takeout/Saved', 'Want to go', 40],
    ['Takeout 2/Saved', 'Want to go', 12],
    ['Takeout/Saved', 'Cafés à Paris', 18],
    ['Takeout/Saved', 'Favourite places', 25],
    ['Takeout/Saved', 'Museums', 9],
    ['Takeout/Saved', 'Ramen', 7],
    ['Takeout/Saved', 'Beaches', 15],
    ['Takeout/Saved', 'Hikes', 11],
    ['Takeout/Saved', 'Bookshops', 6],
    ['Takeout/Saved', 'Café crawl', 8],
    ['Takeout/Saved', 'Road trip 2024', 30],
    ['Takeout/Saved', 'Zürich', 5],
  ] as [folder: string, name: string, places: number][]
).map(([folder, name, rowCount]) =>
  listSummary({ path: `${folder}/${name}.csv`, name, rowCount, size: rowCount * 120 }),
);

export const FILE = { name: 'takeout-20250101.zip', size: 1_572_864 };

/** One of three lists chosen, so Select All and Deselect All both change something. */
export const ARCHIVE: Archive = {
  file: FILE,
  lists: LISTS,
  selected: [LISTS[0]!.path],
  converted: [],
};

export const CARD = {
  kind: 'card',
  clientSecret: 'pi_123_secret_abc',
  paymentIntentId: 'pi_123',
} as const;

/** The hold an earlier visit left open for the same lists, as the page offers it: 68 places, 25 found. */
export const HELD = {
  kind: 'held',
  paymentIntentId: 'pi_left',
  amountAuthorizedCents: 680,
  placesAuthorized: 68,
  placesResolved: 25,
} as const;

export const PROGRESS = {
  percent: 40,
  fileIndex: 0,
  fileCount: 1,
  fileName: 'Want to go.csv',
  currentItem: 'https://www.google.com/maps/place/Somewhere',
  lookups: null,
  secondsLeft: null,
};

export const RESULT: FileResult = {
  path: LISTS[0]!.path,
  name: 'Want to go',
  fileName: 'Want to go.csv',
  outputName: 'Want to go',
  counts: { total: 40, converted: 37, skipped: 3 },
  unplaced: { not_found: 2, throttled: 1 },
  skippedReason: null,
  empty: false,
  files: [
    {
      key: `${LISTS[0]!.path}#1/1`,
      fileName: 'Want to go.kml',
      url: 'blob:kml-1',
      format: 'kml',
      placemarks: 37,
      part: 1,
      parts: 1,
    },
  ],
  failed: {
    key: `${LISTS[0]!.path}#failed`,
    fileName: 'Want to go - failed places.csv',
    url: 'blob:csv-1',
    count: 3,
  },
};

/** A representative state for every status. */
export const STATES: Record<Status, AppState> = {
  empty: { status: 'empty', error: 'Something went wrong.', refusedFileName: null },
  inspecting: { status: 'inspecting', fileId: 7, file: FILE },
  loaded: { status: 'loaded', ...ARCHIVE, error: null },
  selecting: { status: 'selecting', ...ARCHIVE, error: null },
  awaitingIntent: { status: 'awaitingIntent', ...ARCHIVE, requestId: 9 },
  paying: { status: 'paying', ...ARCHIVE, authorization: CARD },
  authorizing: { status: 'authorizing', ...ARCHIVE, authorization: CARD },
  validating: {
    status: 'validating',
    ...ARCHIVE,
    authorization: CARD,
    progress: PROGRESS,
    cancelling: false,
  },
  extracting: {
    status: 'extracting',
    ...ARCHIVE,
    authorization: CARD,
    progress: PROGRESS,
    cancelling: false,
  },
  converting: {
    status: 'converting',
    ...ARCHIVE,
    authorization: CARD,
    progress: PROGRESS,
    cancelling: false,
  },
  preparing: {
    status: 'preparing',
    ...ARCHIVE,
    authorization: CARD,
    progress: PROGRESS,
    cancelling: false,
  },
  complete: {
    status: 'complete',
    ...ARCHIVE,
    authorization: CARD,
    results: [RESULT],
    totals: { total: 40, converted: 37, skipped: 3 },
    refusals: [],
    capture: { kind: 'pending' },
    downloaded: [],
    format: 'kml',
    formatPending: null,
    zip: { kind: 'idle' },
    confirming: null,
    stopped: false,
  },
  failed: {
    status: 'failed',
    ...ARCHIVE,
    error: 'The converter stopped unexpectedly. Please remove the file and try again.',
    cancelled: false,
    authorization: CARD,
    capture: { kind: 'pending' },
  },
};

/** What the API answers for the capture of {@link CARD}'s $4.00 hold after 37 places converted. */
export const CAPTURE_OUTCOME: CaptureOutcome = {
  cancelled: false,
  amountAuthorizedCents: 400,
  amountCapturedCents: 370,
  amountReleasedCents: 30,
  reference: 'pi_123',
};

/** {@link CAPTURE_OUTCOME} as the page keeps it: dated 15 January 2026, 2:05 PM local time. */
export const RECEIPT: Receipt = {
  ...CAPTURE_OUTCOME,
  settledAt: new Date(2026, 0, 15, 14, 5).getTime(),
};

/** A $4.00 hold of 40 places an earlier visit left open, 12 of them found by the server. */
export const OPEN_PAYMENT: PaymentStatus = {
  status: 'open',
  amountAuthorizedCents: 400,
  amountCapturedCents: 0,
  amountReleasedCents: 0,
  reference: 'pi_left',
  placesAuthorized: 40,
  placesResolved: 12,
  settlesAt: new Date(2026, 10, 25, 14, 35).getTime(),
};

/** What the API answers when {@link OPEN_PAYMENT} is settled: 12 places charged, the rest released. */
export const OPEN_PAYMENT_CAPTURED: CaptureOutcome = {
  cancelled: false,
  amountAuthorizedCents: 400,
  amountCapturedCents: 120,
  amountReleasedCents: 280,
  reference: 'pi_left',
};

/** The receipt on screen as a person reads it: term → value. */
export function receiptLines(): Record<string, string | null | undefined> {
  const receipt = screen.getByRole('group', { name: 'Receipt' });
  return Object.fromEntries(
    within(receipt)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
}

/** Payment notes kept in memory, as `localStorage` keeps them; `items` shows what is kept. */
export function memoryNotes(initial: Record<string, string> = {}): PaymentNotes & {
  items: Map<string, string>;
} {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

/** A worker stand-in that records calls and answers what the test set. */
export function fakeConverter(overrides: Partial<Converter> = {}): Converter & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    inspect: async (file) => {
      calls.push(`inspect:${file.name}`);
      return { ok: true, value: { lists: [...LISTS] } };
    },
    convert: async (options) => {
      calls.push(`convert:${options.paths.join('|')}`);
      return { ok: true, value: { lists: [], totals: { total: 0, converted: 0, skipped: 0 } } };
    },
    files: async (format) => {
      calls.push(`files:${format}`);
      return { ok: true, value: { lists: {} } };
    },
    prepareRetry: async () => {
      calls.push('prepareRetry');
      return { ok: true, value: { lists: [] } };
    },
    zipAll: async (format) => {
      calls.push(`zipAll:${format}`);
      return { ok: true, value: { fileName: `PlacePort ${format}.zip`, chunks: [] } };
    },
    points: async () => {
      calls.push('points');
      return { ok: true, value: { lists: [] } };
    },
    reset: async () => {
      calls.push('reset');
    },
    lookupRefusals: async () => {
      calls.push('lookupRefusals');
      return [];
    },
    cancel: async () => {
      calls.push('cancel');
    },
    deviceOnline: async () => {
      calls.push('deviceOnline');
    },
    terminate: () => {
      calls.push('terminate');
    },
    ...overrides,
  };
}

/** An API that must not be called: component tests mount views, the effects have their own tests. */
export const UNUSED_API: Api = {
  getConfig: () => Promise.reject(new Error('getConfig was not expected')),
  createPaymentIntent: () => Promise.reject(new Error('createPaymentIntent was not expected')),
  capturePayment: () => Promise.reject(new Error('capturePayment was not expected')),
  paymentStatus: () => Promise.reject(new Error('paymentStatus was not expected')),
  demoAuthorize: () => Promise.reject(new Error('demoAuthorize was not expected')),
};

export interface MountOptions {
  state?: AppState;
  config?: Partial<AppConfig>;
  converter?: Converter;
  api?: Api;
  /** Where payments are noted (the page's `localStorage`); none unless a test gives some. */
  notes?: PaymentNotes;
}

/** A fresh store in `state` with the given config, and effects over a fake worker. */
export function testServices({
  state,
  config,
  converter = fakeConverter(),
  api = UNUSED_API,
  notes,
}: MountOptions = {}): AppServices {
  const store = createAppStore(state);
  if (config) store.getState().configLoaded({ ...DEFAULT_CONFIG, ...config });
  const effects = createEffects({ store, converter, api, apiBase: 'http://127.0.0.1:1', notes });
  return { store, effects };
}

/** Renders `ui` inside the app's providers, with {@link testServices}. */
export function mount(ui: ReactElement, options: MountOptions = {}) {
  const services = testServices(options);
  const view = render(<AppProvider services={services}>{ui}</AppProvider>);
  return { ...services, ...view };
}
