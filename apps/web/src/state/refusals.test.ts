import type { RefusalFields } from '@placeport/contract';
import { describe, expect, it } from 'vitest';
import type { Refusal } from '../api/http';
import { captureFailedMessage, MESSAGES, releaseFailedMessage } from './messages';
import {
  authorizeRefusalText,
  captureRefusalText,
  distinctLookupRefusals,
  intentRefusalText,
  lookupRefusalText,
  releaseRefusalText,
  waitFor,
} from './refusals';

function refusal(
  status: number,
  code: string,
  message = '',
  retryAfterSeconds: number | null = null,
  numbers: RefusalFields = {},
): Refusal {
  return { status, code, message, retryAfterSeconds, ...numbers };
}

/** A refusal with its numbers (`limit`, `per`, `amountCaptured`) and a sentence that has none. */
function withNumbers(status: number, code: string, numbers: RefusalFields): Refusal {
  return refusal(status, code, 'No number here.', null, numbers);
}

const CONTEXT = { places: 3_833, contactEmail: 'help@placeport.example' };
const TRY_AGAIN = /try again|retry/i;

/** Each refusal of `POST /api/create-payment-intent`, its sentence, and whether asking again can work. */
const INTENT: Array<[Refusal, string, boolean]> = [
  [
    withNumbers(400, 'demo_limit', { limit: 1000 }),
    'Demo payments on this server cover at most 1,000 places, and this selection has 3,833 places. Choose fewer lists, then Proceed to Payment (you can convert the others in another run).',
    false,
  ],
  [
    withNumbers(400, 'too_many_places', { limit: 100_000 }),
    'One payment covers at most 100,000 places, and this selection has 3,833 places. Choose fewer lists, then convert the others in another run.',
    false,
  ],
  [
    refusal(400, 'below_minimum_charge', 'Payments start at $0.50'),
    'Card payments start at $0.50 (5 places), and this selection is smaller: choose it alone to convert it for free, or add lists.',
    false,
  ],
  [
    refusal(400, 'invalid_amount', 'amount must be a whole number of cents.'),
    'The server did not accept the amount this page asked for 3,833 places, so no payment was started and nothing was charged. This is a fault of the page, not yours: reload it, and if it happens again, write to help@placeport.example.',
    false,
  ],
  [
    withNumbers(429, 'too_many_payments', { limit: 20, per: 'hour' }),
    'At most 20 payments can be started from one address in an hour, and yours has reached that. Nothing was charged. Try again in an hour.',
    true,
  ],
  [
    withNumbers(429, 'too_many_payments', { limit: 50, per: 'day' }),
    'At most 50 payments can be started from one address in a day, and yours has reached that. Nothing was charged. Try again tomorrow.',
    true,
  ],
  [
    refusal(429, 'rate_limited', 'Too many requests. Please wait 1 minute and try again.'),
    'Too many requests came from your address in the last minute. Wait a minute, then try again.',
    true,
  ],
  [
    refusal(503, 'store_unavailable', 'This server cannot reach its shared state', 5),
    'The server cannot reach its payment records right now. Nothing was charged by this step. Try again in a moment.',
    true,
  ],
  [
    refusal(503, 'shutting_down', 'This server is restarting', 2),
    'The server is restarting. Nothing was charged by this step. Try again in a moment.',
    true,
  ],
  [
    refusal(503, 'store_full', 'Too many payments are open', 60),
    'Too many payments are open on this server right now. Nothing was charged. Try again in a few minutes.',
    true,
  ],
  [
    refusal(503, 'payment_provider_unavailable', 'The payment provider could not be reached.', 10),
    'The payment provider (Stripe) could not be reached, so no payment was started and nothing was charged. Try again in 10 seconds.',
    true,
  ],
  [
    refusal(503, 'payments_unavailable', 'Payments are not available right now.'),
    'Payments are not available on this server right now, so paid conversions cannot start; nothing was charged. Selections under 5 places still convert for free. Please write to help@placeport.example.',
    false,
  ],
  [
    refusal(400, 'payment_rejected', 'The payment provider refused the request.'),
    'The payment provider refused to start this payment, so nothing was charged. If it refuses again, please write to help@placeport.example.',
    false,
  ],
  [
    refusal(400, 'invalid_request', 'amount: Invalid type'),
    'The server could not read the payment request this page sent, so nothing was charged. This is a fault of the page: reload it, and if it happens again, write to help@placeport.example.',
    false,
  ],
  [
    refusal(500, 'internal_error', 'Something went wrong on our side.'),
    MESSAGES.intentFailed,
    true,
  ],
];

describe('intentRefusalText', () => {
  it.each(
    INTENT.map(([given, sentence, retryWorks]) => ({
      code: given.code,
      given,
      sentence,
      retryWorks,
    })),
  )('$code: says its cause and what to do', ({ given, sentence, retryWorks }) => {
    expect(intentRefusalText(given, CONTEXT)).toBe(sentence);
    if (!retryWorks) expect(sentence).not.toMatch(TRY_AGAIN);
  });

  it("keeps the seed's message when the API gave no reason (no answer, a proxy's page)", () => {
    expect(intentRefusalText(null, CONTEXT)).toBe(
      'Failed to initialize payment. Please try again.',
    );
  });

  it('never says "Please try again" after the amount was refused', () => {
    for (const code of [
      'demo_limit',
      'too_many_places',
      'invalid_amount',
      'below_minimum_charge',
    ]) {
      expect(intentRefusalText(refusal(400, code), CONTEXT)).not.toMatch(TRY_AGAIN);
    }
  });

  it('says when one list alone is over what a payment covers, which fewer lists cannot mend', () => {
    const alone = {
      ...CONTEXT,
      places: 100_001,
      largestList: { name: 'Everything', places: 100_001 },
    };
    for (const [code, limit, cover] of [
      ['too_many_places', 100_000, 'One payment covers at most 100,000 places'],
      ['demo_limit', 1_000, 'Demo payments on this server cover at most 1,000 places'],
    ] as const) {
      expect(intentRefusalText(withNumbers(400, code, { limit }), alone)).toBe(
        `${cover}, and this selection has 100,001 places. The list "Everything" alone has 100,001 places, and a list is converted whole, so it cannot be converted here. Nothing was charged.`,
      );
    }
    // Lists each under the cap: choosing fewer of them is the way.
    const several = { ...alone, largestList: { name: 'Half', places: 50_001 } };
    expect(
      intentRefusalText(withNumbers(400, 'too_many_places', { limit: 100_000 }), several),
    ).toMatch(/Choose fewer lists, then convert the others in another run\.$/);
  });

  it('words a demo cap it cannot read without a number', () => {
    expect(intentRefusalText(refusal(400, 'demo_limit'), CONTEXT)).toMatch(
      /^Demo payments on this server cover a limited number of places, and this selection has 3,833 places\./,
    );
  });

  it('reads the numbers from their fields, never from the sentence', () => {
    const sentence = (code: string, message: string) =>
      intentRefusalText(refusal(429, code, message), CONTEXT);
    expect(
      sentence('demo_limit', 'Demo payments on this server cover at most 1,000 places.'),
    ).toMatch(/^Demo payments on this server cover a limited number of places,/);
    expect(
      sentence(
        'too_many_payments',
        'At most 50 payments can be started from one address in a day.',
      ),
    ).toBe(
      'Only a few payments can be started from one address in an hour, and yours has reached that. Nothing was charged. Try again in an hour.',
    );
    expect(sentence('too_many_places', 'A payment can cover at most 5 places.')).toMatch(
      /^One payment covers at most 100,000 places,/,
    );
  });
});

describe('authorizeRefusalText', () => {
  it.each(
    [
      [
        refusal(404, 'payment_not_found', 'No payment with this id was found.'),
        'The server no longer knows this payment (it may have restarted), so it cannot be authorized; nothing was charged. Go Back to Selection and choose Proceed to Payment again.',
      ],
      [
        refusal(409, 'payment_unexpected_state'),
        'This payment was already used or cancelled, so it cannot be authorized again; nothing more was charged. Go Back to Selection and choose Proceed to Payment again.',
      ],
      [
        refusal(503, 'payment_provider_unavailable', '', 10),
        'The payment provider could not be reached, so nothing was authorized or charged. Try again in 10 seconds.',
      ],
      [
        refusal(429, 'rate_limited'),
        'Too many requests came from your address in the last minute. Wait a minute, then try again.',
      ],
      [refusal(400, 'something_new', 'A new refusal.'), 'A new refusal.'],
    ].map(([given, sentence]) => ({
      code: (given as Refusal).code,
      given: given as Refusal,
      sentence: sentence as string,
    })),
  )('$code', ({ given, sentence }) => {
    expect(authorizeRefusalText(given)).toBe(sentence);
  });

  it("says the seed's default when the API gave no reason", () => {
    expect(authorizeRefusalText(null)).toBe(MESSAGES.unexpected);
  });
});

describe('captureRefusalText and releaseRefusalText', () => {
  const later =
    'The server settles it by itself within 30 minutes, charging only for the places it looked up; nothing more is needed from you.';

  it.each(
    [
      [
        refusal(
          503,
          'payment_provider_unavailable',
          'The payment provider could not be reached. Payment reference: pi_1.',
          10,
        ),
        `Stripe could not be reached to settle your payment, so your card still holds the authorization. ${later} Reference: pi_1`,
      ],
      [
        refusal(503, 'store_unavailable', '', 5),
        `The server could not reach its payment records to settle your payment, so your card still holds the authorization. ${later} Reference: pi_1`,
      ],
      [
        refusal(503, 'shutting_down', '', 2),
        `The server was restarting when asked to settle your payment, so your card still holds the authorization. ${later} Reference: pi_1`,
      ],
      [
        refusal(409, 'payment_cancelled'),
        "This payment's authorization was already cancelled, so nothing was charged. Reference: pi_1",
      ],
      [
        withNumbers(409, 'already_captured', { amountCaptured: 3.7 }),
        'This payment was already settled ($3.70 charged); it is not charged again. Reference: pi_1',
      ],
      [
        withNumbers(409, 'already_captured', { amountCaptured: 1234.5 }),
        'This payment was already settled ($1,234.50 charged); it is not charged again. Reference: pi_1',
      ],
      [
        refusal(409, 'already_captured', 'This payment was already captured ($3.70).'),
        'This payment was already settled; it is not charged again. Reference: pi_1',
      ],
    ].map(([given, sentence]) => ({
      code: (given as Refusal).code,
      given: given as Refusal,
      sentence: sentence as string,
    })),
  )('$code: the cause, what became of the hold, and the reference', ({ given, sentence }) => {
    expect(captureRefusalText(given, 'pi_1')).toBe(sentence);
    expect(releaseRefusalText(given, 'pi_1')).toBe(sentence);
    expect(sentence).not.toMatch(TRY_AGAIN);
  });

  it("keeps the seed's warning (or the release warning) for a cause it cannot explain", () => {
    for (const given of [null, refusal(400, 'amount_mismatch'), refusal(500, 'internal_error')]) {
      expect(captureRefusalText(given, 'pi_1')).toBe(captureFailedMessage('pi_1'));
      expect(releaseRefusalText(given, 'pi_1')).toBe(releaseFailedMessage('pi_1'));
    }
  });
});

/** A paid run whose payment the server no longer accepts (or knows: it restarted). */
const LOST =
  'The payment of this run was no longer accepted for lookups (it was settled, or the server restarted), so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.';

describe('distinctLookupRefusals', () => {
  const lostPayment = [
    refusal(413, 'payload_too_large', 'Without a payment, a request can hold at most 4 links.'),
    refusal(404, 'payment_not_found'),
    refusal(402, 'payment_required'),
  ];

  it('names a paid run whose payment the server lost once, however it was refused', () => {
    const kept = distinctLookupRefusals(lostPayment, true);
    expect(kept.map((given) => lookupRefusalText(given, true))).toEqual([LOST]);
  });

  it('keeps every cause that reads differently', () => {
    expect(distinctLookupRefusals(lostPayment, false)).toEqual(lostPayment);
  });
});

describe('lookupRefusalText', () => {
  it.each(
    [
      [
        withNumbers(402, 'free_budget_used', { limit: 20 }),
        false,
        "Today's free lookups (20 a day for each address) are used up or too few for these places, so the places that need one were not looked up. A paid selection of 5 places or more looks them all up; or retry them for free tomorrow.",
      ],
      [
        refusal(402, 'payment_required'),
        false,
        'Without a payment, only 4 places can be looked up at a time, so the others were not looked up. A paid selection of 5 places or more looks them all up.',
      ],
      [
        withNumbers(403, 'link_allowance_used', { limit: 1200 }),
        true,
        'This payment\'s lookups were used up (it covers 1,200 places), so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.',
      ],
      [
        refusal(402, 'free_budget_used', 'The 20 free lookups of today are used (0 left).'),
        false,
        "Today's free lookups (a few a day for each address) are used up or too few for these places, so the places that need one were not looked up. A paid selection of 5 places or more looks them all up; or retry them for free tomorrow.",
      ],
      [
        refusal(403, 'link_allowance_used', 'This payment covers 1200 places.'),
        true,
        'This payment\'s lookups were used up, so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.',
      ],
      [
        refusal(400, 'too_many_urls'),
        true,
        'The server refused lookups sent in requests too large for this payment, so those places were not looked up. "Retry failed places" sends them again in a new run.',
      ],
      [
        refusal(402, 'payment_not_authorized'),
        true,
        'The payment of this run was no longer accepted for lookups (it was settled, or the server restarted), so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.',
      ],
      [
        refusal(503, 'overloaded', 'Busy', 30),
        true,
        'The lookup service was too busy to take more lookups. Places not converted are not charged: use "Retry failed places" in 30 seconds to look them up again.',
      ],
      [
        refusal(429, 'rate_limited'),
        true,
        'Too many lookups came from your address in a short time. Wait a minute, then use "Retry failed places".',
      ],
      [
        refusal(503, 'store_unavailable', '', 5),
        true,
        'The server could not reach its shared records, so some places were not looked up. Use "Retry failed places" in a moment.',
      ],
      [
        refusal(503, 'shutting_down', '', 2),
        true,
        'The server was restarting, so some places were not looked up. Places not converted are not charged: use "Retry failed places" in a moment.',
      ],
      [
        refusal(503, 'google_unreachable', 'Google cannot be reached from this server.', 120),
        true,
        'Cannot reach Google: PlacePort\'s server gets no answer from Google right now, so those places were not looked up. Places not converted are not charged: use "Retry failed places" in 2 minutes.',
      ],
      [refusal(402, 'payment_required'), true, LOST],
      [
        refusal(413, 'payload_too_large', 'Without a payment, a request can hold at most 4 links.'),
        true,
        LOST,
      ],
      [
        refusal(413, 'payload_too_large', 'Without a payment, a request can hold at most 4 links.'),
        false,
        'The lookup service refused some lookups (Without a payment, a request can hold at most 4 links.). Use "Retry failed places" to look them up again.',
      ],
      [
        refusal(418, 'teapot', 'I am a teapot.'),
        true,
        'The lookup service refused some lookups (I am a teapot.). Use "Retry failed places" to look them up again.',
      ],
    ].map(([given, paid, sentence]) => ({
      code: (given as Refusal).code,
      given: given as Refusal,
      paid: paid as boolean,
      sentence: sentence as string,
    })),
  )('$code', ({ given, paid, sentence }) => {
    expect(lookupRefusalText(given, paid)).toBe(sentence);
  });
});

describe('waitFor', () => {
  it.each([
    [null, 'in a moment'],
    [1, 'in a moment'],
    [10, 'in 10 seconds'],
    [59.5, 'in 60 seconds'],
    [60, 'in a minute'],
    [150, 'in 3 minutes'],
  ])('Retry-After %s → %s', (seconds, words) => {
    expect(waitFor(refusal(503, 'x', '', seconds))).toBe(words);
  });
});
