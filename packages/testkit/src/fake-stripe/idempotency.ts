/** A stored answer to replay for a repeated idempotency key. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

interface Entry {
  fingerprint: string;
  response: StoredResponse;
}

/** What an idempotency lookup found: nothing yet, a replay, or a reuse of the key with other parameters. */
export type IdempotencyLookup =
  { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' };

/**
 * Stripe's idempotency: the first response for a key (errors included) is replayed for the same
 * request, and the key cannot be reused with different parameters. Keys are scoped to the API key.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  lookup(scope: string, key: string, fingerprint: string): IdempotencyLookup {
    const entry = this.entries.get(`${scope}\u0000${key}`);
    if (!entry) return { kind: 'new' };
    return entry.fingerprint === fingerprint
      ? { kind: 'replay', response: entry.response }
      : { kind: 'mismatch' };
  }

  save(scope: string, key: string, fingerprint: string, response: StoredResponse): void {
    this.entries.set(`${scope}\u0000${key}`, { fingerprint, response });
  }
}
