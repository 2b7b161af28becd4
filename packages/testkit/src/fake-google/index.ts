export {
  startFakeGoogle,
  UPSTREAM_HOST_HEADER,
  FAKE_GOOGLE_API_KEY,
  REQUESTER_LOCATION,
  type FakeGoogle,
  type FakeGoogleOptions,
  type PlaceBehaviour,
  type RecordedGoogleRequest,
  type RedirectOptions,
} from './server.js';
export {
  ALL_PAGE_FORMS,
  PAGE_FORMS,
  PAGE_FORM_EVIDENCE,
  LEAN_DEFAULT_LOCATION,
  STATIC_MAP_CENTRE_OFFSET_METRES,
  finalPlaceUrl,
  genericPage,
  leanPage,
  placePage,
  type PageSubject,
  type PageEvidence,
  type PageForm,
} from './pages.js';
export { CAMERA_OFFSET_METRES } from './place-data.js';
export { ftidForCid } from './ftid.js';
export { LOCALIZED_PRODUCT_NAMES, PAGE_LANGUAGES, type PageLanguage } from './localized.js';
export { REAL_PLACE_PAGES, realPageForCid, type RealPlacePage } from './real-pages.js';
export { THROTTLE_MODES, type ThrottleMode } from './throttle.js';
export {
  FAKE_GOOGLE_DISABLED_KEY,
  PLACES_API_FAILURES,
  type PlacesApiBehaviour,
} from './places-api.js';
export {
  ADVERSARIAL_PAGE_BYTES,
  ADVERSARIAL_PAGE_NAMES,
  adversarialPage,
  adversarialPages,
  type AdversarialPageName,
} from './adversarial.js';
export { cidFromPlaceId } from './place-id.js';
