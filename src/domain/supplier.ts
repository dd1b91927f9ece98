import type { Decider, CommandData } from './decider.js';
import { assertNever, DomainError, invalidInput } from './errors.js';

export type TokenEnvironment = 'sandbox' | 'production';

/**
 * The scheme a keyed token hash starts with (src/crypto/tokens.ts): a stored hash without it
 * is a plain SHA-256 written before hashes were keyed, which no look-up ever matches.
 */
export const KEYED_TOKEN_HASH = 'hmac-sha256:';

export const isKeyedTokenHash = (tokenHash: string) => tokenHash.startsWith(KEYED_TOKEN_HASH);

/** The rate-limit classes a supplier's limits can be raised in ("limits can be raised on request"). */
export const raisableLimits = ['reads', 'writes', 'sync', 'bulk', 'simulate', 'test', 'per_supplier'] as const;
export type RaisableLimit = (typeof raisableLimits)[number];
/** Requests per minute that replace the spec's numbers for this supplier; a class not named keeps the spec's. */
export type RateLimitOverrides = Partial<Record<RaisableLimit, number>>;

export type SupplierEvent =
  | { type: 'SupplierRegistered'; data: { supplierId: string; name: string; at: string } }
  | {
      type: 'SupplierTokenIssued';
      // only the hash: the token itself is shown once and never stored
      data: { supplierId: string; tokenId: string; tokenHash: string; environment: TokenEnvironment; at: string };
    }
  | { type: 'SupplierTokenRevoked'; data: { supplierId: string; tokenId: string; at: string } }
  // the keyed hashes of tokens issued before hashes were keyed, by token id: made once, at
  // the upgrade, by the service that holds the key (src/commands/older-data.ts)
  | { type: 'SupplierTokenHashesKeyed'; data: { supplierId: string; hashes: Record<string, string>; at: string } }
  // one offer per product per supplier: the supplier's stream holds the claim, so two
  // racing creates cannot both win
  | { type: 'OfferSlotClaimed'; data: { supplierId: string; productId: string; offerId: string; at: string } }
  // at most 10 webhook endpoints: counted in the supplier's stream, so racing creates cannot pass it
  | { type: 'WebhookSlotClaimed'; data: { supplierId: string; endpointId: string; at: string } }
  | { type: 'WebhookSlotReleased'; data: { supplierId: string; endpointId: string; at: string } }
  // the whole set of overrides after the change, so a reader needs only the latest one
  | { type: 'SupplierRateLimitsSet'; data: { supplierId: string; limits: RateLimitOverrides; at: string } };

export type SupplierCommand =
  | { type: 'RegisterSupplier'; data: { supplierId: string; name: string; now: string } }
  | { type: 'IssueToken'; data: { tokenId: string; tokenHash: string; environment: TokenEnvironment; now: string } }
  | { type: 'RevokeToken'; data: { tokenId: string; now: string } }
  /** `hashes`: a keyed hash for each token whose stored hash is not keyed yet (others are left alone). */
  | { type: 'KeyTokenHashes'; data: { hashes: Record<string, string>; now: string } }
  | { type: 'ClaimOfferSlot'; data: { productId: string; offerId: string; now: string } }
  | { type: 'ClaimWebhookSlot'; data: { endpointId: string; max: number; now: string } }
  | { type: 'ReleaseWebhookSlot'; data: { endpointId: string; now: string } }
  | { type: 'SetRateLimits'; data: { limits: RateLimitOverrides; now: string } };

export interface SupplierState {
  id: string | null;
  name: string;
  /** `keyed`: the stored hash is a keyed one; tokens issued before hashes were keyed are not, until the upgrade keys them. */
  tokens: Record<string, { revoked: boolean; keyed: boolean }>;
  /** productId -> offerId */
  offers: Record<string, string>;
  webhooks: string[];
  rateLimits: RateLimitOverrides;
}

export const supplierDecider: Decider<SupplierState, SupplierCommand, SupplierEvent> = {
  initialState: { id: null, name: '', tokens: {}, offers: {}, webhooks: [], rateLimits: {} },

  evolve(state, event) {
    switch (event.type) {
      case 'SupplierRegistered':
        return { ...state, id: event.data.supplierId, name: event.data.name };
      case 'SupplierTokenIssued': {
        const issued = { revoked: false, keyed: isKeyedTokenHash(event.data.tokenHash) };
        return { ...state, tokens: { ...state.tokens, [event.data.tokenId]: issued } };
      }
      case 'SupplierTokenRevoked': {
        const token = state.tokens[event.data.tokenId];
        return {
          ...state,
          tokens: { ...state.tokens, [event.data.tokenId]: { keyed: false, ...token, revoked: true } },
        };
      }
      case 'SupplierTokenHashesKeyed': {
        const tokens = { ...state.tokens };
        for (const tokenId of Object.keys(event.data.hashes))
          tokens[tokenId] = { revoked: false, ...tokens[tokenId], keyed: true };
        return { ...state, tokens };
      }
      case 'OfferSlotClaimed':
        return { ...state, offers: { ...state.offers, [event.data.productId]: event.data.offerId } };
      case 'WebhookSlotClaimed':
        return { ...state, webhooks: [...state.webhooks, event.data.endpointId] };
      case 'WebhookSlotReleased':
        return { ...state, webhooks: state.webhooks.filter((id) => id !== event.data.endpointId) };
      case 'SupplierRateLimitsSet':
        return { ...state, rateLimits: event.data.limits };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterSupplier':
        return registerSupplier(state, command.data);
      case 'IssueToken':
        return issueToken(state, command.data);
      case 'RevokeToken':
        return revokeToken(state, command.data);
      case 'KeyTokenHashes':
        return keyTokenHashes(state, command.data);
      case 'ClaimOfferSlot':
        return claimOfferSlot(state, command.data);
      case 'ClaimWebhookSlot':
        return claimWebhookSlot(state, command.data);
      case 'ReleaseWebhookSlot':
        return releaseWebhookSlot(state, command.data);
      case 'SetRateLimits':
        return setRateLimits(state, command.data);
      default:
        return assertNever(command);
    }
  },
};

const requireSupplier = (state: SupplierState): string => {
  if (state.id === null) throw new DomainError('not_found', 'supplier not found');
  return state.id;
};

// ---- one function per command: what each decides, given the state as it stands

const registerSupplier = (
  state: SupplierState,
  data: CommandData<SupplierCommand, 'RegisterSupplier'>,
): SupplierEvent[] => {
  if (state.id !== null) throw new DomainError('supplier_exists', `supplier ${state.id} already exists`);
  return [
    {
      type: 'SupplierRegistered',
      data: { supplierId: data.supplierId, name: data.name, at: data.now },
    },
  ];
};

const issueToken = (state: SupplierState, data: CommandData<SupplierCommand, 'IssueToken'>): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  const { tokenId, tokenHash, environment, now } = data;
  return [{ type: 'SupplierTokenIssued', data: { supplierId, tokenId, tokenHash, environment, at: now } }];
};

const revokeToken = (state: SupplierState, data: CommandData<SupplierCommand, 'RevokeToken'>): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  const token = state.tokens[data.tokenId];
  if (!token) throw new DomainError('not_found', `token ${data.tokenId} not found`);
  if (token.revoked) return [];
  return [{ type: 'SupplierTokenRevoked', data: { supplierId, tokenId: data.tokenId, at: data.now } }];
};

const keyTokenHashes = (
  state: SupplierState,
  data: CommandData<SupplierCommand, 'KeyTokenHashes'>,
): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  const hashes: Record<string, string> = {};
  for (const [tokenId, hash] of Object.entries(data.hashes)) {
    const token = state.tokens[tokenId];
    // a token keyed already keeps its hash; an unknown one has nothing to key
    if (token && !token.keyed && isKeyedTokenHash(hash)) hashes[tokenId] = hash;
  }
  if (Object.keys(hashes).length === 0) return [];
  return [{ type: 'SupplierTokenHashesKeyed', data: { supplierId, hashes, at: data.now } }];
};

const claimOfferSlot = (
  state: SupplierState,
  data: CommandData<SupplierCommand, 'ClaimOfferSlot'>,
): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  const { productId, offerId, now } = data;
  const held = state.offers[productId];
  if (held === offerId) return [];
  if (held)
    throw new DomainError('offer_exists', `you already have offer ${held} for product ${productId}`, {
      offer_id: held,
    });
  return [{ type: 'OfferSlotClaimed', data: { supplierId, productId, offerId, at: now } }];
};

const claimWebhookSlot = (
  state: SupplierState,
  data: CommandData<SupplierCommand, 'ClaimWebhookSlot'>,
): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  const { endpointId, max, now } = data;
  if (state.webhooks.includes(endpointId)) return [];
  if (state.webhooks.length >= max)
    throw invalidInput(
      [{ input: 'url', message: `limit of ${max} endpoints reached` }],
      `at most ${max} webhook endpoints per environment; delete one first`,
    );
  return [{ type: 'WebhookSlotClaimed', data: { supplierId, endpointId, at: now } }];
};

const releaseWebhookSlot = (
  state: SupplierState,
  data: CommandData<SupplierCommand, 'ReleaseWebhookSlot'>,
): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  if (!state.webhooks.includes(data.endpointId)) return [];
  return [
    {
      type: 'WebhookSlotReleased',
      data: { supplierId, endpointId: data.endpointId, at: data.now },
    },
  ];
};

const setRateLimits = (state: SupplierState, data: CommandData<SupplierCommand, 'SetRateLimits'>): SupplierEvent[] => {
  const supplierId = requireSupplier(state);
  const limits = { ...state.rateLimits, ...data.limits };
  // setting what is already set records nothing
  if (raisableLimits.every((k) => limits[k] === state.rateLimits[k])) return [];
  return [{ type: 'SupplierRateLimitsSet', data: { supplierId, limits, at: data.now } }];
};
