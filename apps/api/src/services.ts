import type { Settings } from './config.js';
import type { RateLimitTuning } from './http/security.js';
import type { DemoPaymentProvider } from './payments/demo-provider.js';
import type { PaymentService } from './payments/service.js';
import type { Resolver } from '@placeport/resolver';
import type { LinkAllowance } from './allowance/allowance.js';

/** The clients and settings the routes use, held on the app as decorators (house-style "Plugins hold clients"). */
declare module 'fastify' {
  interface FastifyInstance {
    settings: Settings;
    payments: PaymentService;
    /** Set only in demo-payments mode; its presence registers the demo authorize route. */
    demoPayments: DemoPaymentProvider | undefined;
    resolver: Resolver;
    linkAllowance: LinkAllowance;
    rateLimits: RateLimitTuning;
  }
}
