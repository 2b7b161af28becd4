/**
 * The Stripe Payment Element. This module is its own chunk: Stripe.js is fetched from Stripe only
 * when it mounts (`@stripe/stripe-js/pure`), never on the first screen. A failed load shows a
 * clear error and a Retry that remounts `<Elements>` with a new promise.
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { type FormEvent, useMemo, useState } from 'react';
import { useEffects } from '../../app/context';
import { Spinner } from '../../components/Spinner';
import type { AuthorizationOutcome } from '../../state/effects';
import { MESSAGES } from '../../state/messages';
import { AuthorizeButton } from './AuthorizeButton';
import { confirmationOutcome } from './stripeOutcome';

interface StripePanelProps {
  publishableKey: string;
  clientSecret: string;
  busy: boolean;
}

export default function StripePanel({ publishableKey, clientSecret, busy }: StripePanelProps) {
  const [attempt, setAttempt] = useState(0);
  const [loadFailed, setLoadFailed] = useState(false);
  const stripe = useMemo<Promise<Stripe | null>>(
    () =>
      loadStripe(publishableKey).catch((error: unknown) => {
        console.error('Stripe.js could not be loaded', error);
        setLoadFailed(true);
        return null;
      }),
    // `attempt` is a dependency on purpose: a retry asks for a fresh promise.
    [publishableKey, attempt],
  );

  if (loadFailed) {
    return (
      <div className="error-panel" role="alert">
        <div>
          <p className="error-title">Payment form unavailable</p>
          <p className="error-message">
            The secure payment form (Stripe.js) could not be loaded. Check your connection, then try
            again.
          </p>
          <button
            type="button"
            className="button small"
            onClick={() => {
              setLoadFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            Retry
          </button>
        </div>
      </div>
    );
  }

  return (
    <Elements
      key={`${clientSecret}#${attempt}`}
      stripe={stripe}
      options={{
        clientSecret,
        appearance: {
          theme: 'stripe',
          variables: { colorPrimary: '#2563eb', borderRadius: '8px' },
        },
      }}
    >
      <StripeForm busy={busy} />
    </Elements>
  );
}

function StripeForm({ busy }: { busy: boolean }) {
  const stripe = useStripe();
  const elements = useElements();
  const effects = useEffects();
  const [ready, setReady] = useState(false);

  async function confirm(): Promise<AuthorizationOutcome> {
    if (!stripe || !elements) return { ok: false, message: MESSAGES.unexpected };
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: window.location.origin },
      redirect: 'if_required',
    });
    return confirmationOutcome(result);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void effects.authorize(confirm);
  }

  return (
    <form className="payment-form" onSubmit={onSubmit}>
      {!ready && (
        <div className="payment-loading">
          <Spinner label="Loading the secure card form…" visibleLabel />
        </div>
      )}
      <PaymentElement options={{ layout: 'tabs' }} onReady={() => setReady(true)} />
      <AuthorizeButton type="submit" busy={busy} disabled={!stripe || !elements || !ready} />
    </form>
  );
}
