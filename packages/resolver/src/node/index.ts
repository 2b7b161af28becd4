export { createProxiedFetch, type ProxiedFetchOptions } from './proxied-fetch.js';
export {
  createPublicFetch,
  isPublicAddress,
  publicOnlyLookup,
  PrivateAddressError,
  type PublicFetchOptions,
} from './public-fetch.js';
