/**
 * The contract is what the API answers: every route's real answer, over HTTP from a listening API
 * (Stripe mode through the fake Stripe, and demo mode), parses with the route's schema from
 * `@placeport/contract/routes`, strict objects included, so a field the API adds, drops or retypes
 * fails here before the page or the CLI meet it. Refusals parse as the one error shape.
 */
import * as v from 'valibot';
import { MINIMUM_CHARGE_CENTS, PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import {
  CaptureReceipt,
  CreatedIntent,
  DemoAuthorized,
  ErrorAnswer,
  Health,
  PaymentStatus,
  PublicConfig,
  Resolved,
} from '@placeport/contract/routes';
import { afterEach, describe, expect, it } from 'vitest';
import { placeLinks, startStack, type Stack } from './support.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** The answer's body, parsed with the contract's schema (throws on any difference). */
function answer<S extends v.GenericSchema>(
  schema: S,
  response: { status: number; body: unknown },
): v.InferOutput<S> {
  expect(response.status).toBe(200);
  return v.parse(schema, response.body);
}

const PINNED = 'https://www.google.com/maps/place/Pinned/data=!3d52.5!4d13.25';
const NOT_GOOGLE = 'https://example.com/maps/place/Elsewhere';

describe("the API's answers are the contract's", () => {
  it('in Stripe mode: config, health, a payment from intent to capture, lookups, refusals', async () => {
    stack = await startStack({ stripe: true });
    const config = answer(PublicConfig, await stack.get('/api/config'));
    expect(config).toMatchObject({
      payments: 'stripe',
      pricePerPlaceCents: PRICE_PER_PLACE_CENTS,
      minimumChargeCents: MINIMUM_CHARGE_CENTS,
    });
    expect(config.publishableKey).toBe(stack.stripe!.publishableKey);
    answer(Health, await stack.get('/api/health'));

    const places = 20;
    const created = answer(
      CreatedIntent,
      await stack.post('/api/create-payment-intent', { amount: places / 10 }),
    );
    const id = created.paymentIntentId;
    expect(answer(PaymentStatus, await stack.get(`/api/payments/${id}`)).status).toBe(
      'not_authorized',
    );
    stack.stripe!.authorize(id);
    const open = answer(PaymentStatus, await stack.get(`/api/payments/${id}`));
    expect(open.status).toBe('open');

    const links = [...placeLinks(3), PINNED, NOT_GOOGLE];
    const resolved = answer(
      Resolved,
      await stack.post('/api/resolve-urls-batch', { urls: links, paymentIntentId: id }),
    );
    expect(Object.keys(resolved.results)).toContain(PINNED);
    expect(resolved.failures[NOT_GOOGLE]).toBe('not_allowed');

    const receipt = answer(
      CaptureReceipt,
      await stack.post('/api/capture-payment', {
        paymentIntentId: id,
        actualAmount: 10 / 10,
        convertedCount: 10,
        totalCount: places,
      }),
    );
    expect(receipt).toMatchObject({ cancelled: false, reference: id });
    const settled = answer(PaymentStatus, await stack.get(`/api/payments/${id}`));
    expect(settled).toMatchObject({ status: 'captured', settlesAt: null });

    const refused = await stack.post('/api/create-payment-intent', { amount: 0.3 });
    expect(refused.status).toBe(400);
    expect(v.parse(ErrorAnswer, refused.body).error.code).toBe('below_minimum_charge');
    const unknown = await stack.post('/api/capture-payment', { paymentIntentId: 'pi_x', extra: 1 });
    expect(unknown.status).toBe(400);
    v.parse(ErrorAnswer, unknown.body);
    const capped = await stack.post('/api/create-payment-intent', { amount: 10_000.1 });
    expect(v.parse(ErrorAnswer, capped.body).error).toMatchObject({ limit: 100_000 });
  });

  it('in demo mode: config without a key, and the demo authorization', async () => {
    stack = await startStack();
    const config = answer(PublicConfig, await stack.get('/api/config'));
    expect(config.payments).toBe('demo');
    expect(config.publishableKey).toBeUndefined();
    const { paymentIntentId } = answer(
      CreatedIntent,
      await stack.post('/api/create-payment-intent', { amount: 1 }),
    );
    answer(DemoAuthorized, await stack.post('/api/demo/authorize', { paymentIntentId }));
    expect(answer(PaymentStatus, await stack.get(`/api/payments/${paymentIntentId}`)).status).toBe(
      'open',
    );
  });
});
