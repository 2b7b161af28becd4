/** How the server takes payments: Stripe card authorizations, or its in-memory demo provider. */
export const PAYMENTS_MODES = ['stripe', 'demo'] as const;

/** Where a payment stands: held, captured, cancelled, or never authorized. */
export const PAYMENT_STATES = ['open', 'captured', 'cancelled', 'not_authorized'] as const;
