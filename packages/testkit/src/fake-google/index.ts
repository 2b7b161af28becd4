export {
  startFakeGoogle,
  UPSTREAM_HOST_HEADER,
  FAKE_GOOGLE_API_KEY,
  REQUESTER_LOCATION,
  type FakeGoogle,
  type FakeGoogleOptions,
  type PlaceBehaviour,
  type RecordedGoogleRequest,
} from './server.js';
export { PAGE_FORMS, finalPlaceUrl, type PageForm } from './pages.js';
export { cidFromPlaceId } from './place-id.js';
