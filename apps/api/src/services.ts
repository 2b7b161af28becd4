import type { Allowance } from './allowance/allowance.js';
import type { Settings } from './config.js';
import type { RateLimitTuning } from './http/security.js';
import type { DemoPaymentProvider } from './payments/demo-provider.js';
import type { PaymentService } from './payments/service.js';
import type { Settlement } from './payments/settlement.js';
import type { Resolver } from '@placeport/resolver';
import type { StateStore } from './state/index.js';

/** The clients and settings the routes use, held on the app as decorators (house-style "Plugins hold clients"). */
declare module 'fastify' {
  interface FastifyInstance {
    settings: Settings;
    payments: PaymentService;
    /** Who may have how many links looked up now, and what they used. */
    allowance: Allowance;
    /** The sweep that settles authorizations left behind. */
    settlement: Settlement;
    /** Set only in demo-payments mode; its presence registers the demo authorize route. */
    demoPayments: DemoPaymentProvider | undefined;
    resolver: Resolver;
    /** Shared state: cache, allowances, server counts, payer bindings, budgets, counters. */
    state: StateStore;
    /** The clock of money decisions. */
    now: () => number;
    rateLimits: RateLimitTuning;
    /**
     * Aborted when the server starts closing: batches under way stop their lookups and answer with
     * what they found, so a shutdown's grace outlasts them (see `app.ts`).
     */
    closing: AbortSignal;
  }
}
