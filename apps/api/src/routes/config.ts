import { MINIMUM_CHARGE_CENTS, PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import { PublicConfig } from '@placeport/contract/routes';
import type { FastifyInstance } from 'fastify';
import { responses } from '../http/schemas.js';

/** `GET /api/config`: product name, contact e-mail, payment mode and publishable key, prices. */
export function registerConfigRoute(app: FastifyInstance): void {
  app.get(
    '/api/config',
    { schema: { response: responses(PublicConfig) } },
    async (): Promise<PublicConfig> => {
      const { settings } = app;
      return {
        productName: settings.productName,
        contactEmail: settings.contactEmail,
        payments: settings.stripe ? 'stripe' : 'demo',
        ...(settings.stripe ? { publishableKey: settings.stripe.publishableKey } : {}),
        pricePerPlaceCents: PRICE_PER_PLACE_CENTS,
        minimumChargeCents: MINIMUM_CHARGE_CENTS,
      };
    },
  );
}
