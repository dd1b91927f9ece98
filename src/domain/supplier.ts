import type { Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';

export type TokenEnvironment = 'sandbox' | 'production';

export type SupplierEvent =
  | { type: 'SupplierRegistered'; data: { supplierId: string; name: string; at: string } }
  | {
      type: 'SupplierTokenIssued';
      // only the hash: the token itself is shown once and never stored
      data: { supplierId: string; tokenId: string; tokenHash: string; environment: TokenEnvironment; at: string };
    }
  | { type: 'SupplierTokenRevoked'; data: { supplierId: string; tokenId: string; at: string } }
  // one offer per product per supplier: the supplier's stream holds the claim, so two
  // racing creates cannot both win
  | { type: 'OfferSlotClaimed'; data: { supplierId: string; productId: string; offerId: string; at: string } };

export type SupplierCommand =
  | { type: 'RegisterSupplier'; data: { supplierId: string; name: string; now: string } }
  | { type: 'IssueToken'; data: { tokenId: string; tokenHash: string; environment: TokenEnvironment; now: string } }
  | { type: 'RevokeToken'; data: { tokenId: string; now: string } }
  | { type: 'ClaimOfferSlot'; data: { productId: string; offerId: string; now: string } };

export interface SupplierState {
  id: string | null;
  name: string;
  tokens: Record<string, { revoked: boolean }>;
  /** productId -> offerId */
  offers: Record<string, string>;
}

export const supplierDecider: Decider<SupplierState, SupplierCommand, SupplierEvent> = {
  initialState: { id: null, name: '', tokens: {}, offers: {} },

  evolve(state, event) {
    switch (event.type) {
      case 'SupplierRegistered':
        return { ...state, id: event.data.supplierId, name: event.data.name };
      case 'SupplierTokenIssued':
        return { ...state, tokens: { ...state.tokens, [event.data.tokenId]: { revoked: false } } };
      case 'SupplierTokenRevoked':
        return { ...state, tokens: { ...state.tokens, [event.data.tokenId]: { revoked: true } } };
      case 'OfferSlotClaimed':
        return { ...state, offers: { ...state.offers, [event.data.productId]: event.data.offerId } };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterSupplier':
        if (state.id !== null) throw new DomainError('supplier_exists', `supplier ${state.id} already exists`);
        return [{ type: 'SupplierRegistered', data: { supplierId: command.data.supplierId, name: command.data.name, at: command.data.now } }];
      case 'IssueToken': {
        const supplierId = requireSupplier(state);
        const { tokenId, tokenHash, environment, now } = command.data;
        return [{ type: 'SupplierTokenIssued', data: { supplierId, tokenId, tokenHash, environment, at: now } }];
      }
      case 'RevokeToken': {
        const supplierId = requireSupplier(state);
        const token = state.tokens[command.data.tokenId];
        if (!token) throw new DomainError('not_found', `token ${command.data.tokenId} not found`);
        if (token.revoked) return [];
        return [{ type: 'SupplierTokenRevoked', data: { supplierId, tokenId: command.data.tokenId, at: command.data.now } }];
      }
      case 'ClaimOfferSlot': {
        const supplierId = requireSupplier(state);
        const { productId, offerId, now } = command.data;
        const held = state.offers[productId];
        if (held === offerId) return [];
        if (held) throw new DomainError('offer_exists', `you already have offer ${held} for product ${productId}`, { offer_id: held });
        return [{ type: 'OfferSlotClaimed', data: { supplierId, productId, offerId, at: now } }];
      }
      default:
        return assertNever(command);
    }
  },
};

const requireSupplier = (state: SupplierState): string => {
  if (state.id === null) throw new DomainError('not_found', 'supplier not found');
  return state.id;
};
