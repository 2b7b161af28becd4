import type { ServerResponse } from 'node:http';
import { errorPage, redirect, send } from './http.js';

/**
 * How Google refuses a client: a 302 to its `/sorry/` CAPTCHA page, a 302 to the EU consent wall
 * (whatever cookies were sent), or a bare 429 (with `Retry-After: 30`) or 503.
 */
export type ThrottleMode = 'sorry' | 'consent' | 429 | 503;

/** Every throttle mode, for table-driven tests. */
export const THROTTLE_MODES: readonly ThrottleMode[] = ['sorry', 'consent', 429, 503];

/** The consent wall's address for a request to `original` (an absolute URL). */
export function consentUrl(original: string): string {
  return `https://consent.google.com/ml?continue=${encodeURIComponent(original)}&gl=DE&hl=en&pc=m&src=1`;
}

/** The `/sorry/` page's address for a request to `original`; `q` is Google's opaque token. */
export function sorryUrl(original: string): string {
  const token = Buffer.from(`fake-sorry:${original}`).toString('base64url').slice(0, 60);
  return `https://www.google.com/sorry/index?continue=${encodeURIComponent(original)}&q=${token}`;
}

const TOO_MANY = `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"/><title>Sorry...</title></head><body><div><h1>We're sorry...</h1><p>... but your computer or network may be sending automated queries. To protect our users, we can't process your request right now.</p></div></body></html>`;

/** The `/sorry/index` page itself: Google answers it with 429 and a CAPTCHA form. */
export function sorryPage(response: ServerResponse): void {
  send(
    response,
    429,
    `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"><title>https://www.google.com/maps</title></head><body><div style="max-width:400px;"><form id="captcha-form" action="index" method="post"><div class="g-recaptcha" data-sitekey="fake"></div><input type="hidden" name="q" value="fake"></form><div id="infoDiv">Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.</div></div></body></html>`,
  );
}

/** The consent wall's page: a form and no place in it. */
export function consentPage(response: ServerResponse): void {
  send(
    response,
    200,
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Before you continue to Google Maps</title></head><body><h1>Before you continue to Google</h1><form action="https://consent.google.com/save" method="POST"><input type="submit" value="Reject all"><input type="submit" value="Accept all"></form></body></html>`,
  );
}

/** Answers a place-page request for `original` as Google does when it refuses the client. */
export function answerThrottled(
  response: ServerResponse,
  mode: ThrottleMode,
  original: string,
): void {
  switch (mode) {
    case 'sorry':
      redirect(response, sorryUrl(original));
      return;
    case 'consent':
      redirect(response, consentUrl(original));
      return;
    case 429:
      send(response, 429, TOO_MANY, { 'retry-after': '30' });
      return;
    case 503:
      send(response, 503, errorPage(503));
      return;
  }
}
