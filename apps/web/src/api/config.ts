/**
 * The page's runtime settings, served by `GET /api/config` (the contract's `PublicConfig`):
 * product name, contact e-mail and how payments are taken. Nothing here is baked in at build time.
 */
import type { PublicConfig } from '@placeport/contract/routes';

export interface AppConfig {
  productName: string;
  contactEmail: string;
  /** Stripe takes real card authorizations; demo uses the API's in-memory provider. */
  payments: PublicConfig['payments'];
  /** Present in Stripe mode. */
  publishableKey: string | null;
}

/** Shown until the API answers, and if it never does (product.md "Names and placeholders"). */
export const DEFAULT_CONFIG: AppConfig = {
  productName: 'PlacePort',
  contactEmail: 'feedback@example.com',
  payments: 'demo',
  publishableKey: null,
};

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

/**
 * Reads an untrusted config body. Stripe mode is only taken when a publishable key comes with
 * it; anything missing falls back to the defaults rather than breaking the page. The contract's
 * price fields are not read: the page has them from the contract too, and the server
 * checks every amount anyway.
 */
export function parseConfig(body: unknown): AppConfig {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Partial<PublicConfig>;
  const publishableKey = typeof raw.publishableKey === 'string' ? raw.publishableKey : null;
  return {
    productName: text(raw.productName, DEFAULT_CONFIG.productName),
    contactEmail: text(raw.contactEmail, DEFAULT_CONFIG.contactEmail),
    payments: raw.payments === 'stripe' && publishableKey ? 'stripe' : 'demo',
    publishableKey: raw.payments === 'stripe' ? publishableKey : null,
  };
}
