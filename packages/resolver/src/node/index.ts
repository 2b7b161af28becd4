export {
  createPublicFetch,
  isPublicAddress,
  publicOnlyLookup,
  PrivateAddressError,
  type PublicFetchOptions,
} from './public-fetch.js';
