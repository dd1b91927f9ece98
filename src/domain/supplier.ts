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
  | { type: 'SupplierTokenRevoked'; data: { supplierId: string; tokenId: string; at: string } };

export type SupplierCommand =
  | { type: 'RegisterSupplier'; data: { supplierId: string; name: string; now: string } }
  | { type: 'IssueToken'; data: { tokenId: string; tokenHash: string; environment: TokenEnvironment; now: string } }
  | { type: 'RevokeToken'; data: { tokenId: string; now: string } };

export interface SupplierState {
  id: string | null;
  name: string;
  tokens: Record<string, { revoked: boolean }>;
}

export const supplierDecider: Decider<SupplierState, SupplierCommand, SupplierEvent> = {
  initialState: { id: null, name: '', tokens: {} },

  evolve(state, event) {
    switch (event.type) {
      case 'SupplierRegistered':
        return { ...state, id: event.data.supplierId, name: event.data.name };
      case 'SupplierTokenIssued':
        return { ...state, tokens: { ...state.tokens, [event.data.tokenId]: { revoked: false } } };
      case 'SupplierTokenRevoked':
        return { ...state, tokens: { ...state.tokens, [event.data.tokenId]: { revoked: true } } };
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
      default:
        return assertNever(command);
    }
  },
};

const requireSupplier = (state: SupplierState): string => {
  if (state.id === null) throw new DomainError('not_found', 'supplier not found');
  return state.id;
};
