import type { Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';
import type { Rejection } from './inventory-items.js';

export type ItemStatus = 'available' | 'reserved' | 'delivered' | 'invalidated' | 'removed';

export interface NewItem {
  itemId: string;
  /** Position in the upload request, for the rejected list. */
  index: number;
  kind: 'text' | 'file';
  /** Keyed hash of the content: finds a key uploaded twice without storing it in clear. */
  fingerprint: string;
  fileName: string | null;
  contentType: string | null;
}

export type InventoryEvent =
  | {
      type: 'InventoryUploaded';
      data: { offerId: string; items: Omit<NewItem, 'index'>[]; rejected: Rejection[]; at: string };
    }
  | { type: 'InventoryItemRemoved'; data: { offerId: string; itemId: string; at: string } }
  | { type: 'OfferStockLow'; data: { offerId: string; available: number; threshold: number; at: string } };

export type InventoryCommand =
  | { type: 'UploadInventory'; data: { offerId: string; mode: 'strict' | 'partial'; items: NewItem[]; rejected: Rejection[]; now: string } }
  | { type: 'RemoveItem'; data: { offerId: string; itemId: string; lowStockThreshold: number; now: string } };

export interface InventoryState {
  items: ReadonlyMap<string, { status: ItemStatus; fingerprint: string }>;
  /** Fingerprints of every key that is or was sold here (removed ones may come back). */
  fingerprints: ReadonlyMap<string, string>;
  available: number;
  reserved: number;
  delivered: number;
}

export const emptyInventory: InventoryState = { items: new Map(), fingerprints: new Map(), available: 0, reserved: 0, delivered: 0 };

const counted = (items: InventoryState["items"], fingerprints: ReadonlyMap<string, string>): InventoryState => {
  let available = 0;
  let reserved = 0;
  let delivered = 0;
  for (const { status } of items.values()) {
    if (status === 'available') available++;
    else if (status === 'reserved') reserved++;
    else if (status === 'delivered') delivered++;
  }
  return { items, fingerprints, available, reserved, delivered };
};

/** Fires when available stock moves from above the threshold to at or below it. */
export const stockLowCrossing = (offerId: string, before: number, after: number, threshold: number, at: string): InventoryEvent[] =>
  before > threshold && after <= threshold ? [{ type: 'OfferStockLow', data: { offerId, available: after, threshold, at } }] : [];

export const inventoryDecider: Decider<InventoryState, InventoryCommand, InventoryEvent> = {
  initialState: emptyInventory,

  evolve(state, event) {
    switch (event.type) {
      case 'InventoryUploaded': {
        if (event.data.items.length === 0) return state;
        const items = new Map(state.items);
        const fingerprints = new Map(state.fingerprints);
        for (const i of event.data.items) {
          items.set(i.itemId, { status: 'available', fingerprint: i.fingerprint });
          fingerprints.set(i.fingerprint, i.itemId);
        }
        return { ...state, items, fingerprints, available: state.available + event.data.items.length };
      }
      case 'InventoryItemRemoved': {
        const item = state.items.get(event.data.itemId);
        if (!item) return state;
        const items = new Map(state.items).set(event.data.itemId, { ...item, status: 'removed' });
        const fingerprints = new Map(state.fingerprints);
        fingerprints.delete(item.fingerprint);
        return counted(items, fingerprints);
      }
      case 'OfferStockLow':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UploadInventory': {
        const { offerId, mode, now } = command.data;
        const rejected = [...command.data.rejected];
        const accepted: NewItem[] = [];
        const seen = new Set<string>();
        for (const item of command.data.items) {
          if (state.fingerprints.has(item.fingerprint))
            rejected.push({ index: item.index, code: 'duplicate_key', message: 'this key is already in the offer\'s stock' });
          else if (seen.has(item.fingerprint))
            rejected.push({ index: item.index, code: 'duplicate_in_batch', message: 'this key appears earlier in the same upload' });
          else {
            seen.add(item.fingerprint);
            accepted.push(item);
          }
        }
        rejected.sort((a, b) => a.index - b.index);
        if (mode === 'strict' && rejected.length > 0)
          throw new DomainError('inventory_rejected', `${rejected.length} item(s) invalid; nothing was stored`, { rejected });
        return [
          {
            type: 'InventoryUploaded',
            data: { offerId, items: accepted.map(({ index: _index, ...item }) => item), rejected, at: now },
          },
        ];
      }
      case 'RemoveItem': {
        const { offerId, itemId, lowStockThreshold, now } = command.data;
        const item = state.items.get(itemId);
        if (!item || item.status === 'removed') throw new DomainError('not_found', `inventory item ${itemId} not found`);
        if (item.status !== 'available') throw new DomainError('invalid_state', `item ${itemId} is ${item.status}; only available items can be deleted`);
        return [
          { type: 'InventoryItemRemoved', data: { offerId, itemId, at: now } },
          ...stockLowCrossing(offerId, state.available, state.available - 1, lowStockThreshold, now),
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
