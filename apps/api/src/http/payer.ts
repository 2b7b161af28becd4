import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { payerHash, samePayer } from '../payments/payer.js';
import { clientKeyOf } from './client.js';
import { ApiError, providerLog } from './errors.js';

/**
 * The cookie that proves which browser created a payment (product.md, Money: "Only the payer acts
 * on a payment"), over plain http (loopback development, or no proxy telling us about TLS). Its
 * value is a random payer id, signed with the first of `PAYER_COOKIE_SECRET` by @fastify/cookie
 * (every listed secret verifies); the intent records only the id's hash, so neither Stripe nor
 * the store holds anything that would let someone forge the cookie.
 */
export const PAYER_COOKIE = 'placeport_payer';
/**
 * The same cookie where the page is served over https: the `__Host-` prefix makes the browser
 * keep it only when it is Secure, for Path=/ and with no Domain, so no sibling subdomain (and no
 * plain-http answer) can plant a payer cookie of its own choosing in the person's browser. Over
 * https only this name is read.
 */
export const SECURE_PAYER_COOKIE = `__Host-${PAYER_COOKIE}`;
/** The cookie outlives any authorization (Stripe drops uncaptured ones after 7 days). */
export const PAYER_COOKIE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/**
 * Whether the request reached us over https: TLS here, or `X-Forwarded-Proto` from a proxy that
 * `TRUST_PROXY` names (Fastify's `request.protocol`).
 */
function overHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** The payer cookie's name for this request's protocol. */
export function payerCookieName(request: FastifyRequest): string {
  return overHttps(request) ? SECURE_PAYER_COOKIE : PAYER_COOKIE;
}

/** The payer id this request proves with a validly signed cookie of its protocol's name, if any. */
export function provenPayer(request: FastifyRequest): string | undefined {
  const raw = request.cookies[payerCookieName(request)];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value && /^[A-Za-z0-9_-]{22,64}$/.test(unsigned.value)
    ? unsigned.value
    : undefined;
}

/**
 * The payer of this browser: the one its cookie proves, or a new one, and (re)sets the cookie,
 * signed with the current secret: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it); over https `__Host-`, Secure and on `/` (what the prefix requires), over http on
 * `/api` only.
 */
export function payerFor(request: FastifyRequest, reply: FastifyReply): string {
  const payer = provenPayer(request) ?? randomBytes(24).toString('base64url');
  const https = overHttps(request);
  reply.setCookie(payerCookieName(request), payer, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: https,
    path: https ? '/' : '/api',
    maxAge: PAYER_COOKIE_MAX_AGE_SECONDS,
  });
  return payer;
}

const NOT_YOURS = 'No payment with this reference was made in this browser.';

/**
 * Refuses a request acting on a payment it cannot prove it made: no valid cookie, another
 * browser's payment, or one the store has no payer for whose intent does not name this payer
 * either. All answer the same 404, so a stranger learns nothing about which ids exist. Without a
 * valid cookie, and for a payment bound to another browser, Stripe is never asked. When the store
 * has no payer for the payment (a flood pushed it out of memory before its authorization was
 * known, or Redis restarted without persistence), the intent's `metadata.payer` decides: a match
 * restores the binding (`PaymentService.restorePayer`), one read of the intent, at most
 * `payerChecksPerMinute` a client.
 */
export async function requirePayer(
  app: FastifyInstance,
  request: FastifyRequest,
  intentId: string,
): Promise<void> {
  if (!(await provesPayer(app, request, intentId))) {
    throw new ApiError(404, 'payment_not_found', NOT_YOURS);
  }
}

async function provesPayer(app: FastifyInstance, request: FastifyRequest, intentId: string) {
  const payer = provenPayer(request);
  if (!payer) return false;
  const hash = payerHash(payer);
  const bound = await app.state.payerOf(intentId);
  if (bound !== undefined) return samePayer(hash, bound);
  const limit = app.rateLimits.payerChecksPerMinute;
  const checks = await app.state.hit(`payer-check:${clientKeyOf(request.ip)}`, 60_000, limit);
  if (!checks.allowed) return false;
  if (!(await app.payments.restorePayer(intentId, hash, providerLog(request)))) return false;
  request.log.info({ payment: intentId }, "payer binding restored from the intent's metadata");
  return true;
}

/**
 * Counts a read of a payment from the provider against this client's
 * `providerReadsPerMinute`; past it, 429 `rate_limited` (Retry-After: a minute) and no read.
 */
export async function spendProviderRead(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<void> {
  const limit = app.rateLimits.providerReadsPerMinute;
  const reads = await app.state.hit(`provider-read:${clientKeyOf(request.ip)}`, 60_000, limit);
  if (!reads.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      'Too many payment checks came from this address in the last minute. Wait a minute, then try again.',
      60,
    );
  }
}
