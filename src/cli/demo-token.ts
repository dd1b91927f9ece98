import { supplierStream } from '../commands/streams.js';
import type { SupplierEvent } from '../domain/supplier.js';
import type { Services } from '../http/services.js';

/** Who the sandbox's seed acts as: its events say so, which tells its tokens from the operator's. */
export const SEED = { correlationId: 'seed' };

/** The file in the data folder that keeps the demo supplier's token. */
export const DEMO_TOKEN_FILE = 'demo-supplier-token';

/** The demo supplier's tokens the seed issued and nobody revoked, from its stream: token id by stored (keyed) hash. */
export const seedTokens = async (services: Services, supplierId: string): Promise<Map<string, string>> => {
  const live = new Map<string, string>();
  for (const recorded of await services.store.readStream(supplierStream(supplierId))) {
    const event = recorded as unknown as SupplierEvent;
    if (event.type === 'SupplierTokenIssued' && recorded.metadata.correlation_id === SEED.correlationId)
      live.set(event.data.tokenId, event.data.tokenHash);
    if (event.type === 'SupplierTokenHashesKeyed')
      for (const [tokenId, hash] of Object.entries(event.data.hashes)) if (live.has(tokenId)) live.set(tokenId, hash);
    if (event.type === 'SupplierTokenRevoked') live.delete(event.data.tokenId);
  }
  return new Map([...live].map(([tokenId, hash]) => [hash, tokenId]));
};
