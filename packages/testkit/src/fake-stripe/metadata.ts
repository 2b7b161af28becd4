import { FakeStripeError } from './errors.js';
import type { FormObject } from './form.js';

/** Stripe's metadata limits (https://docs.stripe.com/api/metadata): 50 keys, 40-character keys, 500-character values. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;

/** Stripe counts characters, not UTF-16 units. */
function characters(text: string): number {
  return [...text].length;
}

function invalidMetadata(message: string): FakeStripeError {
  return new FakeStripeError(400, { type: 'invalid_request_error', param: 'metadata', message });
}

function preview(text: string): string {
  const chars = [...text];
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : text;
}

/**
 * Applies a form-encoded `metadata` parameter to existing metadata the way Stripe does:
 * `metadata[key]=value` sets a key and leaves the others, `metadata[key]=` (empty) unsets it, and
 * `metadata=` (empty) unsets every key. The result must fit Stripe's limits, or nothing changes and an
 * `invalid_request_error` on `metadata` is thrown. `[` and `]` cannot reach a key: the form decoder
 * reads them as nesting, and nested values are refused.
 */
export function mergeMetadata(
  current: Readonly<Record<string, string>>,
  raw: string | FormObject | undefined,
): Record<string, string> {
  if (raw === undefined) return { ...current };
  if (typeof raw === 'string') {
    if (raw === '') return {};
    throw invalidMetadata(
      'Invalid metadata: send metadata[key]=value pairs, or an empty metadata to unset every key.',
    );
  }
  const next: Record<string, string> = { ...current };
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string') {
      throw invalidMetadata(
        `Invalid val: metadata[${key}] must be a string, not a nested object (keys cannot contain [ or ]).`,
      );
    }
    if (key === '' || characters(key) > METADATA_MAX_KEY_LENGTH) {
      throw invalidMetadata(
        `Invalid key: '${preview(key)}' has ${characters(key)} characters; metadata keys must have 1 to ${METADATA_MAX_KEY_LENGTH} characters.`,
      );
    }
    if (value === '') {
      delete next[key];
      continue;
    }
    if (characters(value) > METADATA_MAX_VALUE_LENGTH) {
      throw invalidMetadata(
        `Invalid val: '${preview(value)}' has ${characters(value)} characters; metadata values can have up to ${METADATA_MAX_VALUE_LENGTH} characters.`,
      );
    }
    next[key] = value;
  }
  const count = Object.keys(next).length;
  if (count > METADATA_MAX_KEYS) {
    throw invalidMetadata(
      `Metadata can have up to ${METADATA_MAX_KEYS} keys, but you've set ${count}.`,
    );
  }
  return next;
}
