/** The converter's worker: the converter package's entry exposes its worker API on `self` through Comlink. */
import '@placeport/converter/worker-entry';
