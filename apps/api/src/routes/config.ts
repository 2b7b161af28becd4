import type { FastifyInstance } from 'fastify';
import { exactObject, responses } from '../http/schemas.js';
import { MINIMUM_CHARGE_CENTS, PRICE_PER_PLACE_CENTS } from '@placeport/contract';

/** The public runtime settings the web app reads at start (architecture.md "Contracts"). */
export interface PublicConfig {
  productName: string;
  contactEmail: string;
  payments: 'stripe' | 'demo';
  publishableKey?: string;
  pricePerPlaceCents: number;
  minimumChargeCents: number;
}

const PUBLIC_CONFIG = exactObject(
  {
    productName: { type: 'string' },
    contactEmail: { type: 'string' },
    payments: { type: 'string', enum: ['stripe', 'demo'] },
    publishableKey: { type: 'string' },
    pricePerPlaceCents: { type: 'integer' },
    minimumChargeCents: { type: 'integer' },
  },
  ['publishableKey'],
);

/** `GET /api/config`: product name, contact e-mail, payment mode and publishable key, prices. */
export function registerConfigRoute(app: FastifyInstance): void {
  app.get(
    '/api/config',
    { schema: { response: responses(PUBLIC_CONFIG) } },
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
