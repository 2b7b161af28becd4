import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripeWithClient } from '../../test/stripe-client.js';
import type { FakePaymentIntent, FakeStripe } from './index.js';

// Every test gets its own fake, so what it searches is exactly what it created.
let fake: FakeStripe;
let stripe: Stripe;

beforeEach(async () => {
  ({ fake, stripe } = await startFakeStripeWithClient());
});
afterEach(() => fake.close());

/** The order search answers in: newest `created` first; among equals, the one created last first. */
function newestFirst(intents: readonly FakePaymentIntent[]): string[] {
  return intents
    .map((intent, index) => ({ intent, index }))
    .sort((a, b) => b.intent.created - a.intent.created || b.index - a.index)
    .map(({ intent }) => intent.id);
}

async function collect<T extends { id: string }>(pages: AsyncIterable<T>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of pages) ids.push(item.id);
  return ids;
}

/** Open authorizations of PlacePort (or `product`). */
function authorized(count: number, product = 'placeport'): FakePaymentIntent[] {
  return fake.seedIntents(count, { metadata: () => ({ product }) });
}

/** 250 open authorizations over 50 seconds of the fake's clock, so many share a `created` second. */
function authorized250(): FakePaymentIntent[] {
  return Array.from({ length: 50 }, () => {
    fake.advanceClock(1000);
    return authorized(5);
  }).flat();
}

const OPEN = "status:'requires_capture' AND metadata['product']:'placeport'";
const idsOf = (result: { data: Array<{ id: string }> }) => result.data.map((each) => each.id);
const search = (query: string, limit?: number) =>
  stripe.paymentIntents.search({ query, ...(limit ? { limit } : {}) });

describe('GET /v1/payment_intents/search through the stripe SDK', () => {
  it('searches open authorizations seeded directly, without requests', async () => {
    const seeded = fake.seedIntents(3, { amount: 200, metadata: (index) => ({ n: `${index}` }) });
    expect(fake.requests).toHaveLength(0);
    expect(seeded.map((intent) => intent.metadata.n)).toEqual(['0', '1', '2']);
    expect(seeded[0]).toMatchObject({ capture_method: 'manual', amount_capturable: 200 });
    expect(idsOf(await search("status:'requires_capture' metadata['n']:'1'"))).toEqual([
      seeded[1]!.id,
    ]);
  });

  it('finds by status and metadata, case-insensitively, joined with AND or spaces', async () => {
    const open = authorized(3);
    const other = authorized(2, 'other');
    const unpaid = fake.createIntent({
      amount: '500',
      currency: 'usd',
      capture_method: 'manual',
      'metadata[product]': 'x',
    });
    const result = await search(OPEN);
    expect(result).toMatchObject({
      object: 'search_result',
      url: '/v1/payment_intents/search',
      has_more: false,
      next_page: null,
    });
    expect(idsOf(result)).toEqual(newestFirst(open));
    expect(fake.requests.at(-1)?.query).toEqual({ query: OPEN });
    expect(idsOf(await search("status:'requires_capture'"))).toEqual(
      newestFirst([...open, ...other]),
    );
    expect(idsOf(await search(`metadata["product"]:"OTHER" status:"REQUIRES_CAPTURE"`))).toEqual(
      newestFirst(other),
    );
    expect(
      idsOf(await search("status:'requires_payment_method' and metadata['product']:'x'")),
    ).toEqual([unpaid.id]);
    expect(idsOf(await search("metadata['run']:'r1'"))).toEqual([]);
  });

  it('pages with limit and next_page, and auto-paginates every match once', async () => {
    const open = authorized250();
    authorized(40, 'other');
    const first = await search(OPEN, 100);
    expect(first.has_more).toBe(true);
    expect(first.next_page).toEqual(expect.any(String));
    expect(idsOf(first)).toEqual(newestFirst(open).slice(0, 100));
    const second = await stripe.paymentIntents.search({
      query: OPEN,
      limit: 100,
      page: first.next_page!,
    });
    expect(idsOf(second)).toEqual(newestFirst(open).slice(100, 200));

    expect(await collect(stripe.paymentIntents.search({ query: OPEN, limit: 100 }))).toEqual(
      newestFirst(open),
    );
    const defaultLimit = await stripe.paymentIntents.search({ query: OPEN }).autoPagingToArray({
      limit: 1000,
    });
    expect(defaultLimit).toHaveLength(250);
  });

  it('lets a sweep capture or cancel what it finds while paging, without skipping any', async () => {
    const open = authorized250();
    const others = authorized(30, 'other');
    const ids: string[] = [];
    for await (const intent of stripe.paymentIntents.search({ query: OPEN, limit: 25 })) {
      ids.push(intent.id);
      if (ids.length % 2 === 0) {
        await stripe.paymentIntents.capture(
          intent.id,
          {},
          { idempotencyKey: `settle-${intent.id}` },
        );
      } else {
        await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: 'abandoned' });
      }
    }
    expect(ids).toEqual(newestFirst(open));
    expect(await search(OPEN)).toMatchObject({ data: [], has_more: false });
    expect(
      others.every((intent) => fake.paymentIntent(intent.id)?.status === 'requires_capture'),
    ).toBe(true);
  });

  it('refuses queries beyond what the API sends with a clear invalid request error', async () => {
    authorized(2);
    const refused = [
      '',
      "(status:'succeeded')",
      "status:'canceled' OR status:'succeeded'",
      "-status:'canceled'",
      "description:'x'",
      'status:succeeded',
      'amount>5',
      "metadata:'x'",
      "status:'succeeded",
      "status:'succeeded' AND",
      "metadata['product']:'place port'",
    ];
    for (const query of refused) {
      const error = await search(query).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, query).toMatchObject({
        type: 'StripeInvalidRequestError',
        param: 'query',
        statusCode: 400,
        message: expect.stringMatching(/^Invalid search query/),
      });
    }
    await expect(
      stripe.paymentIntents.search({} as Stripe.PaymentIntentSearchParams),
    ).rejects.toMatchObject({ code: 'parameter_missing', param: 'query' });
    await expect(
      stripe.paymentIntents.search({ query: OPEN, page: 'not-a-token' }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'page' });
    for (const limit of [101, -1, 1.5]) {
      await expect(search(OPEN, limit)).rejects.toMatchObject({
        code: 'parameter_invalid_integer',
        param: 'limit',
      });
    }
  });

  it('refuses searches and updates with the publishable key', async () => {
    const [intent] = authorized(1);
    const query = (more: string) =>
      `key=${fake.publishableKey}&client_secret=${encodeURIComponent(intent!.client_secret)}${more}`;
    const found = await fetch(
      `${fake.url}/v1/payment_intents/search?${query("&query=status:'requires_capture'")}`,
    );
    const update = await fetch(`${fake.url}/v1/payment_intents/${intent!.id}`, {
      method: 'POST',
      body: new URLSearchParams(query('&metadata[x]=1')),
    });
    expect([found.status, update.status]).toEqual([401, 401]);
    expect(fake.paymentIntent(intent!.id)?.metadata).not.toHaveProperty('x');
  });

  it('can lag behind writes, as Stripe search does, while retrieve stays current', async () => {
    const [intent] = authorized(1);
    fake.holdSearchIndex();
    await stripe.paymentIntents.capture(intent!.id, { amount_to_capture: 600 });
    authorized(2);

    const stale = await search("status:'requires_capture'");
    expect(stale.data).toEqual([
      expect.objectContaining({ id: intent!.id, status: 'requires_capture' }),
    ]);
    expect(await stripe.paymentIntents.retrieve(intent!.id)).toMatchObject({
      status: 'succeeded',
      amount_received: 600,
    });

    fake.releaseSearchIndex();
    const fresh = await search("status:'requires_capture'");
    expect(fresh.data.map((each) => each.id)).not.toContain(intent!.id);
    expect(fresh.data).toHaveLength(2);
  });
});
