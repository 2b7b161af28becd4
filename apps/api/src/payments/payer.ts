import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The hash of a payer id (the payer cookie's value, `http/payer.ts`), as recorded on intents and
 * in the state store: neither holds anything that would let someone forge the cookie.
 */
export function payerHash(payerId: string): string {
  return createHash('sha256').update(payerId).digest('base64url');
}

/** Constant-time comparison of two payer hashes. */
export function samePayer(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
