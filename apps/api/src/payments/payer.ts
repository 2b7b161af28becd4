import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import type { StateStore } from '../state/index.js';

/**
 * The cookie that proves which browser created a payment (product.md, Money: "Only the payer acts
 * on a payment"). Its value is a random payer id, signed with `PAYER_COOKIE_SECRET` by
 * @fastify/cookie; the intent records only the id's hash, so neither Stripe nor the store holds
 * anything that would let someone forge the cookie.
 */
export const PAYER_COOKIE = 'placeport_payer';
/** The cookie outlives any authorization (Stripe drops uncaptured ones after 7 days). */
export const PAYER_COOKIE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** The hash of a payer id, as recorded on intents and in the state store. */
export function payerHash(payerId: string): string {
  return createHash('sha256').update(payerId).digest('base64url');
}

/** Constant-time comparison of two payer hashes. */
export function samePayer(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The payer id this request proves with a validly signed cookie, if any. */
export function provenPayer(request: FastifyRequest): string | undefined {
  const raw = request.cookies[PAYER_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value && /^[A-Za-z0-9_-]{22,64}$/.test(unsigned.value)
    ? unsigned.value
    : undefined;
}

/**
 * The payer of this browser: the one its cookie proves, or a new one, and (re)sets the cookie:
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure over
 * https, on `/api` only.
 */
export function payerFor(request: FastifyRequest, reply: FastifyReply): string {
  const payer = provenPayer(request) ?? randomBytes(24).toString('base64url');
  reply.setCookie(PAYER_COOKIE, payer, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/api',
    maxAge: PAYER_COOKIE_MAX_AGE_SECONDS,
  });
  return payer;
}

const NOT_YOURS = 'No payment with this reference was made in this browser.';

/**
 * Refuses, before any call to Stripe, a request acting on a payment it cannot prove it made: no
 * valid cookie, a payment the store never bound (made up, or forgotten), or another browser's.
 * All three answer the same 404, so a stranger learns nothing about which ids exist.
 */
export async function requirePayer(
  state: StateStore,
  request: FastifyRequest,
  intentId: string,
): Promise<void> {
  const payer = provenPayer(request);
  const bound = payer ? await state.payerOf(intentId) : undefined;
  if (!payer || !bound || !samePayer(payerHash(payer), bound)) {
    throw new ApiError(404, 'payment_not_found', NOT_YOURS);
  }
}
