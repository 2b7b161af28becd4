/**
 * The parts of fflate the converter uses, as `src/lazy-fflate.ts` loads them on first use: a module
 * of its own, so the bundle keeps only these (and what they need) and runs them only when required.
 */
export { Inflate, inflateSync, strToU8, Zip, ZipPassThrough } from 'fflate';
