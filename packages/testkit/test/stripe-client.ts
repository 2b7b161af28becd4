/**
 * The fake Stripe's own tests drive it through the real `stripe` SDK, as the API does. This is the
 * one way they start a fake and point a client at it: plain HTTP on loopback, no retries (a retry
 * would hide a wrong answer) and no telemetry.
 */
import Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '../src/fake-stripe/index.js';

/** A `stripe` SDK client that talks to `fake`, with its secret key unless told another. */
export function stripeClient(fake: FakeStripe, secretKey = fake.secretKey): Stripe {
  return new Stripe(secretKey, {
    host: '127.0.0.1',
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/** Starts a fake Stripe and a client for it; the caller closes `fake`. */
export async function startFakeStripeWithClient(): Promise<{ fake: FakeStripe; stripe: Stripe }> {
  const fake = await startFakeStripe();
  return { fake, stripe: stripeClient(fake) };
}

/**
 * Creates a manual-capture PaymentIntent the way the API does: card or wallet without redirects,
 * and by default the metadata of `amount / 10` places.
 */
export function createManualIntent(
  stripe: Stripe,
  amount = 120,
  metadata: Record<string, string> = { places: String(amount / 10), product: 'placeport' },
): Promise<Stripe.PaymentIntent> {
  return stripe.paymentIntents.create({
    amount,
    currency: 'usd',
    capture_method: 'manual',
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    metadata,
  });
}
