import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripeWithClient } from '../../test/stripe-client.js';
import type { FakePaymentIntent, FakeStripe } from './index.js';

// Every test gets its own fake, so what it lists is exactly what it seeded.
let fake: FakeStripe;
let stripe: Stripe;

beforeEach(async () => {
  ({ fake, stripe } = await startFakeStripeWithClient());
});
afterEach(() => fake.close());

/** Stripe's order: newest `created` first; among equals, the one created last first. */
function stripeOrder(intents: readonly FakePaymentIntent[]): string[] {
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

function gets(path: string) {
  return fake.requests.filter((request) => request.method === 'GET' && request.path === path);
}

/** 250 intents over about 50 distinct seconds, so many share a `created` second. */
function seed250(): FakePaymentIntent[] {
  return fake.seedIntents(250, {
    createdSecondsAgo: (index) => ((index * 37) % 50) * 60,
    metadata: (index) => ({ product: 'placeport', n: String(index) }),
  });
}

describe('GET /v1/payment_intents through the stripe SDK', () => {
  it('auto-paginates 250 intents: each exactly once, newest first, ties by creation order', async () => {
    const seeded = seed250();
    const expected = stripeOrder(seeded);
    const createdSeconds = new Set(seeded.map((intent) => intent.created));
    expect(createdSeconds.size).toBeLessThan(100); // ties are really exercised

    const ids = await collect(stripe.paymentIntents.list({ limit: 100 }));
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(250);

    const pages = gets('/v1/payment_intents');
    expect(pages.map((request) => request.query)).toEqual([
      { limit: '100' },
      { limit: '100', starting_after: expected[99] },
      { limit: '100', starting_after: expected[199] },
    ]);
  });

  it('pages with the default limit of 10 and reports has_more', async () => {
    const seeded = seed250();
    const first = await stripe.paymentIntents.list();
    expect(first).toMatchObject({ object: 'list', url: '/v1/payment_intents', has_more: true });
    expect(first.data.map((intent) => intent.id)).toEqual(stripeOrder(seeded).slice(0, 10));

    const all = await stripe.paymentIntents.list().autoPagingToArray({ limit: 1000 });
    expect(all.map((intent) => intent.id)).toEqual(stripeOrder(seeded));
    expect(gets('/v1/payment_intents')).toHaveLength(1 + 25);

    const last = await stripe.paymentIntents.list({
      starting_after: stripeOrder(seeded)[239],
    });
    expect(last.has_more).toBe(false);
    expect(last.data).toHaveLength(10);
  });

  it('pages backwards with ending_before: the nearest newer page, still newest first', async () => {
    const expected = stripeOrder(seed250());
    const oldest = expected.at(-1)!;

    const page = await stripe.paymentIntents.list({ ending_before: oldest, limit: 100 });
    expect(page.data.map((intent) => intent.id)).toEqual(expected.slice(149, 249));
    expect(page.has_more).toBe(true);

    // The SDK walks ending_before pages from the cursor towards the newest intent.
    const ids = await collect(stripe.paymentIntents.list({ ending_before: oldest, limit: 100 }));
    expect(ids).toEqual(expected.slice(0, 249).reverse());

    const newest = await stripe.paymentIntents.list({ ending_before: expected[0] });
    expect(newest).toMatchObject({ data: [], has_more: false });
  });

  it('keeps pages stable while intents are created, captured and cancelled during paging', async () => {
    const expected = stripeOrder(seed250());
    const ids: string[] = [];
    for await (const intent of stripe.paymentIntents.list({ limit: 10 })) {
      ids.push(intent.id);
      if (ids.length === 5) fake.seedIntents(7); // newer than every cursor: not in later pages
      if (ids.length % 3 === 0) await stripe.paymentIntents.capture(intent.id);
      if (ids.length % 3 === 1) await stripe.paymentIntents.cancel(intent.id);
    }
    expect(ids).toEqual(expected);
  });

  it('filters on created[gt|gte|lt|lte] and created=N, and ignores customer', async () => {
    const seeded = fake.seedIntents(5, { createdSecondsAgo: (index) => (5 - index) * 100 });
    const [c0, c1, c2, c3, c4] = seeded.map((intent) => intent.created) as [
      number,
      number,
      number,
      number,
      number,
    ];
    expect(c0 < c1 && c1 < c2 && c2 < c3 && c3 < c4).toBe(true);
    const ids = (indexes: number[]) => indexes.map((index) => seeded[index]!.id);
    const list = async (params: Stripe.PaymentIntentListParams) =>
      (await stripe.paymentIntents.list(params)).data.map((intent) => intent.id);

    expect(await list({ created: { gt: c1 } })).toEqual(ids([4, 3, 2]));
    expect(await list({ created: { gte: c1 } })).toEqual(ids([4, 3, 2, 1]));
    expect(await list({ created: { lt: c3 } })).toEqual(ids([2, 1, 0]));
    expect(await list({ created: { lte: c3 } })).toEqual(ids([3, 2, 1, 0]));
    expect(await list({ created: { gte: c1, lt: c4 } })).toEqual(ids([3, 2, 1]));
    expect(fake.requests.at(-1)?.query).toEqual({
      'created[gte]': String(c1),
      'created[lt]': String(c4),
    });
    expect(await list({ created: c2 })).toEqual(ids([2]));
    expect(await list({ customer: 'cus_anyone' })).toEqual(ids([4, 3, 2, 1, 0]));

    const paged = await collect(stripe.paymentIntents.list({ created: { gte: c1 }, limit: 1 }));
    expect(paged).toEqual(ids([4, 3, 2, 1]));
  });

  it('refuses what Stripe refuses: limit out of 1–100, unknown cursors and parameters', async () => {
    const [intent] = fake.seedIntents(12);
    for (const limit of [0, 101, -1]) {
      await expect(stripe.paymentIntents.list({ limit })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'parameter_invalid_integer',
        param: 'limit',
        statusCode: 400,
      });
    }
    await expect(stripe.paymentIntents.list({ limit: 1.5 })).rejects.toMatchObject({
      code: 'parameter_invalid_integer',
    });
    await expect(stripe.paymentIntents.list({ limit: 100 })).resolves.toMatchObject({
      has_more: false,
    });
    await expect(stripe.paymentIntents.list({ limit: 1 })).resolves.toMatchObject({
      has_more: true,
    });

    for (const param of ['starting_after', 'ending_before'] as const) {
      await expect(stripe.paymentIntents.list({ [param]: 'pi_unknown' })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'resource_missing',
        param,
        message: "No such payment_intent: 'pi_unknown'",
      });
    }
    await expect(
      stripe.paymentIntents.list({ starting_after: intent!.id, ending_before: intent!.id }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
    // Lists cannot filter by status (a sweep must use search, or filter the pages itself).
    await expect(
      stripe.paymentIntents.list({ status: 'requires_capture' } as Stripe.PaymentIntentListParams),
    ).rejects.toMatchObject({ code: 'parameter_unknown', param: 'status' });
    await expect(
      stripe.paymentIntents.list({ created: { after: 5 } } as Stripe.PaymentIntentListParams),
    ).rejects.toMatchObject({ code: 'parameter_unknown', param: 'created[after]' });
  });

  it('refuses lists, searches and updates with the publishable key', async () => {
    const [intent] = fake.seedIntents(1);
    const secret = intent!.client_secret;
    const query = (more: string) =>
      `key=${fake.publishableKey}&client_secret=${encodeURIComponent(secret)}${more}`;
    const list = await fetch(`${fake.url}/v1/payment_intents?${query('')}`);
    const search = await fetch(
      `${fake.url}/v1/payment_intents/search?${query("&query=status:'requires_capture'")}`,
    );
    const update = await fetch(`${fake.url}/v1/payment_intents/${intent!.id}`, {
      method: 'POST',
      body: new URLSearchParams(query('&metadata[x]=1')),
    });
    expect([list.status, search.status, update.status]).toEqual([401, 401, 401]);
    expect(fake.paymentIntent(intent!.id)?.metadata).not.toHaveProperty('x');
  });
});

describe('GET /v1/payment_intents/search through the stripe SDK', () => {
  function seedMixed() {
    const open = fake.seedIntents(3, {
      metadata: (index) => ({ product: 'placeport', run: `r${index}` }),
      createdSecondsAgo: (index) => 3000 - index * 1000, // 3000, 2000, 1000 seconds ago
    });
    const captured = fake.seedIntents(2, {
      status: 'succeeded',
      metadata: { product: 'placeport' },
    });
    const cancelled = fake.seedIntents(2, { status: 'canceled', metadata: { product: 'other' } });
    const unpaid = fake.seedIntents(1, { status: 'requires_payment_method' });
    return { open, captured, cancelled, unpaid };
  }
  const idsOf = (result: { data: Array<{ id: string }> }) => result.data.map((each) => each.id);
  const search = (query: string, limit?: number) =>
    stripe.paymentIntents.search({ query, ...(limit ? { limit } : {}) });

  it('finds by status (case-insensitive) and answers a search_result, newest first', async () => {
    const { open, captured, cancelled, unpaid } = seedMixed();
    const result = await search("status:'requires_capture'");
    expect(result).toMatchObject({
      object: 'search_result',
      url: '/v1/payment_intents/search',
      has_more: false,
      next_page: null,
    });
    expect(idsOf(result)).toEqual(stripeOrder(open));
    expect(idsOf(await search('status:"SUCCEEDED"'))).toEqual(stripeOrder(captured));
    expect(idsOf(await search("-status:'canceled'")).sort()).toEqual(
      [...open, ...captured, ...unpaid].map((intent) => intent.id).sort(),
    );
    expect(
      idsOf(await search("status:'canceled' OR status:'requires_payment_method'")).sort(),
    ).toEqual([...cancelled, ...unpaid].map((intent) => intent.id).sort());
    expect(fake.requests.at(-1)?.query).toEqual({
      query: "status:'canceled' OR status:'requires_payment_method'",
    });
  });

  it('finds by metadata, created and amount, joined with AND or spaces', async () => {
    const { open, captured } = seedMixed();
    const [oldest, middle, newest] = open as [
      FakePaymentIntent,
      FakePaymentIntent,
      FakePaymentIntent,
    ];
    expect(idsOf(await search("metadata['run']:'r1'"))).toEqual([middle.id]);
    expect(idsOf(await search(`metadata["product"]:"placeport" AND status:'succeeded'`))).toEqual(
      stripeOrder(captured),
    );
    expect(
      idsOf(
        await search(
          `status:'requires_capture' AND metadata['product']:'placeport' AND created<${middle.created + 1}`,
        ),
      ),
    ).toEqual([middle.id, oldest.id]);
    expect(idsOf(await search(`status:'requires_capture' created>${middle.created}`))).toEqual([
      newest.id,
    ]);
    expect(idsOf(await search(`status:'requires_capture' and created>=${middle.created}`))).toEqual(
      [newest.id, middle.id],
    );
    expect(idsOf(await search(`metadata['run']:null AND amount:1000`))).toHaveLength(5);
    expect(idsOf(await search(`-metadata['run']:null`)).sort()).toEqual(
      open.map((intent) => intent.id).sort(),
    );
    expect(idsOf(await search(`amount>1000`))).toEqual([]);
    expect(
      idsOf(await search("metadata['product']:'placeport' status:'requires_capture'")),
    ).toEqual(stripeOrder(open));
  });

  it('pages with limit and next_page, and auto-paginates every match once', async () => {
    const seeded = seed250();
    fake.seedIntents(40, { status: 'succeeded', metadata: { product: 'placeport' } });
    const query = "status:'requires_capture' AND metadata['product']:'placeport'";
    const first = await search(query, 100);
    expect(first.has_more).toBe(true);
    expect(first.next_page).toEqual(expect.any(String));
    expect(idsOf(first)).toEqual(stripeOrder(seeded).slice(0, 100));
    const second = await stripe.paymentIntents.search({
      query,
      limit: 100,
      page: first.next_page!,
    });
    expect(idsOf(second)).toEqual(stripeOrder(seeded).slice(100, 200));

    const ids = await collect(stripe.paymentIntents.search({ query, limit: 100 }));
    expect(ids).toEqual(stripeOrder(seeded));
    const defaultLimit = await stripe.paymentIntents.search({ query }).autoPagingToArray({
      limit: 1000,
    });
    expect(defaultLimit).toHaveLength(250);
  });

  it('lets a sweep capture or cancel what it finds while paging, without skipping any', async () => {
    const seeded = seed250();
    const others = fake.seedIntents(30, { metadata: { product: 'other' } });
    const ids: string[] = [];
    const query = "status:'requires_capture' AND metadata['product']:'placeport'";
    for await (const intent of stripe.paymentIntents.search({ query, limit: 25 })) {
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
    expect(ids).toEqual(stripeOrder(seeded));
    expect(await search(query)).toMatchObject({ data: [], has_more: false });
    expect(
      others.every((intent) => fake.paymentIntent(intent.id)?.status === 'requires_capture'),
    ).toBe(true);
  });

  it('refuses unsupported query syntax with a clear invalid request error', async () => {
    seedMixed();
    const refused: Array<[string, RegExp]> = [
      ['', /empty/],
      ["(status:'succeeded')", /parentheses/],
      ["status:'succeeded' AND (amount>5)", /parentheses/],
      ["description:'x'", /'description' is not a supported field/],
      ["last_payment_error.code:'card_declined'", /not a supported field/],
      ['status:succeeded', /must be quoted/],
      ["status:'succeeded' AND currency:'usd' OR amount>5", /AND and OR cannot be combined/],
      ["metadata['run']~'r1'", /matched exactly/],
      ["status~'su'", /at least 3 characters/],
      ["amount:'1000'", /numeric/],
      ["status>'a'", /holds strings/],
      ['metadata.run:1', /not a supported field/],
      ["metadata:'x'", /metadata needs a key/],
      ["status:'succeeded", /not closed/],
      ["status:'succeeded'AND amount>5", /separate clauses/],
      ['status', /expected an operator/],
      ["status:'succeeded' AND", /ends with AND/],
      [Array.from({ length: 11 }, (_, i) => `amount>${i}`).join(' AND '), /at most 10 clauses/],
    ];
    for (const [query, message] of refused) {
      const error = await search(query).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, query).toMatchObject({
        type: 'StripeInvalidRequestError',
        param: 'query',
        statusCode: 400,
      });
      expect((error as Error).message, query).toMatch(message);
    }
    await expect(
      search(Array.from({ length: 10 }, (_, i) => `amount>${i}`).join(' AND ')),
    ).resolves.toMatchObject({ object: 'search_result' });
    await expect(
      stripe.paymentIntents.search({} as Stripe.PaymentIntentSearchParams),
    ).rejects.toMatchObject({ code: 'parameter_missing', param: 'query' });
    await expect(
      stripe.paymentIntents.search({ query: "status:'succeeded'", page: 'not-a-token' }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'page' });
    await expect(search("status:'succeeded'", 101)).rejects.toMatchObject({
      code: 'parameter_invalid_integer',
      param: 'limit',
    });
  });

  it('can lag behind writes, as Stripe search does, while list and retrieve stay current', async () => {
    const [intent] = fake.seedIntents(1);
    fake.holdSearchIndex();
    await stripe.paymentIntents.capture(intent!.id, { amount_to_capture: 600 });
    fake.seedIntents(2);

    const stale = await search("status:'requires_capture'");
    expect(stale.data).toEqual([
      expect.objectContaining({ id: intent!.id, status: 'requires_capture' }),
    ]);
    expect(await stripe.paymentIntents.retrieve(intent!.id)).toMatchObject({
      status: 'succeeded',
      amount_received: 600,
    });
    expect((await stripe.paymentIntents.list()).data).toHaveLength(3);

    fake.releaseSearchIndex();
    const fresh = await search("status:'requires_capture'");
    expect(fresh.data.map((each) => each.id)).not.toContain(intent!.id);
    expect(fresh.data).toHaveLength(2);
  });
});
