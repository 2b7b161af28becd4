import { invalidParam } from './errors.js';
import type { FormObject } from './form.js';

/**
 * Applies a form-encoded `metadata` parameter to existing metadata the way Stripe does:
 * `metadata[key]=value` sets a key and leaves the others, and `metadata[key]=` (empty) unsets it.
 * Anything else (nested values, a bare `metadata=…`) is an `invalid_request_error` on `metadata`
 * and changes nothing.
 */
export function mergeMetadata(
  current: Readonly<Record<string, string>>,
  raw: string | FormObject | undefined,
): Record<string, string> {
  const next: Record<string, string> = { ...current };
  const refused = () =>
    invalidParam('metadata', 'Invalid metadata: send metadata[key]=value pairs.');
  if (typeof raw === 'string') throw refused();
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (typeof value !== 'string') throw refused();
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}
