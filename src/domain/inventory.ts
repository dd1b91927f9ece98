import type { Decider, CommandData } from './decider.js';
import { assertNever, DomainError } from './errors.js';
import { GrowingList } from './growing-list.js';
import type { Rejection } from './inventory-items.js';
import { VersionedMap } from './versioned-map.js';

/**
 * `removed` is what the supplier calls withdrawn, `delivered` sold; `held` is under review
 * (a key also held by another supplier): kept, never sold, until the operator decides.
 */
export type ItemStatus = 'available' | 'reserved' | 'delivered' | 'invalidated' | 'removed' | 'held';

/** Another supplier's item holding the same key: named in events only, never to the uploader. */
export interface CollidingItem {
  itemId: string;
  offerId: string;
  supplierId: string;
}

export interface NewItem {
  itemId: string;
  /** Position in the upload request, for the rejected list. */
  index: number;
  kind: 'text' | 'file';
  /** Keyed hash of the content: finds a key uploaded twice without storing it in clear. */
  fingerprint: string;
  fileName: string | null;
  contentType: string | null;
  /** What the supplier sees of a text key (`maskOf`); '' for a file. */
  mask: string;
  /** A file's size in bytes; null for a text key. */
  size: number | null;
  /** Set when another supplier holds the same key: the item is stored under review. */
  collidesWith?: CollidingItem;
}

interface ReservationRef {
  offerId: string;
  orderId: string;
  orderItemId: string;
  itemIds: string[];
}

/** An uploaded file's name and type, by its place in the upload's `itemIds`. */
export interface UploadedFile {
  place: number;
  fileName: string;
  contentType: string;
  /** Bytes; null on uploads recorded before version 3. */
  size: number | null;
}

/** An item of the upload stored under review: its place in `itemIds`, and whose key it also is. */
export interface HeldOnUpload extends CollidingItem {
  place: number;
}

/**
 * An upload as recorded (version 3, src/domain/upcasters.ts): the accepted items as columns,
 * not an object per item, and only the files named (every other item is a text key). An
 * upload of 1,000 keys is about a third of the version 1 event, and its append, its read by
 * the projections and its JSON decoding cost about that much less. Version 3 adds what the
 * supplier sees of each key (`masks`: at most its first 2 and last 4 characters, never the
 * key) and the items held under review on arrival (`held`).
 */
export interface InventoryUploadedData {
  offerId: string;
  /** The accepted items, in upload order. */
  itemIds: string[];
  /** `fingerprints[i]` is the fingerprint of `itemIds[i]`. */
  fingerprints: string[];
  /** `masks[i]` is what is shown of `itemIds[i]` ('' for a file, and for keys uploaded before version 3). */
  masks: string[];
  files: UploadedFile[];
  /** Items stored under review, not for sale: another supplier holds the same key. */
  held: HeldOnUpload[];
  rejected: Rejection[];
  at: string;
}

export type InventoryEvent =
  | { type: 'InventoryUploaded'; data: InventoryUploadedData }
  | { type: 'InventoryItemRemoved'; data: { offerId: string; itemId: string; at: string } }
  /** Several items withdrawn at once (a selection, a batch); one item by DELETE stays InventoryItemRemoved. */
  | { type: 'InventoryItemsWithdrawn'; data: { offerId: string; itemIds: string[]; at: string } }
  | {
      type: 'InventoryItemsHeld';
      data: { offerId: string; itemIds: string[]; reason: HoldReason; collidesWith: CollidingItem | null; at: string };
    }
  /** Held items back for sale: the operator's review found nothing against them. */
  | { type: 'InventoryReviewCleared'; data: { offerId: string; itemIds: string[]; at: string } }
  | { type: 'OfferStockLow'; data: { offerId: string; available: number; threshold: number; at: string } }
  | { type: 'InventoryReserved'; data: ReservationRef & { expiresAt: string; at: string } }
  | { type: 'InventoryReleased'; data: ReservationRef & { at: string } }
  | { type: 'InventoryDelivered'; data: ReservationRef & { at: string } }
  | {
      type: 'InventoryItemInvalidated';
      data: {
        offerId: string;
        supplierId: string;
        itemId: string;
        previousStatus: ItemStatus;
        reason: string | null;
        at: string;
      };
    };

export type HoldReason = 'key_collision' | 'operator';

export type InventoryCommand =
  | {
      type: 'UploadInventory';
      data: { offerId: string; mode: 'strict' | 'partial'; items: NewItem[]; rejected: Rejection[]; now: string };
    }
  | { type: 'RemoveItem'; data: { offerId: string; itemId: string; lowStockThreshold: number; now: string } }
  | {
      type: 'WithdrawItems';
      data: { offerId: string; itemIds: readonly string[]; lowStockThreshold: number; now: string };
    }
  | {
      type: 'HoldItems';
      data: {
        offerId: string;
        itemIds: readonly string[];
        reason: HoldReason;
        collidesWith: CollidingItem | null;
        lowStockThreshold: number;
        now: string;
      };
    }
  | { type: 'ClearReview'; data: { offerId: string; itemIds: readonly string[]; now: string } }
  | {
      type: 'ReserveItems';
      data: {
        offerId: string;
        orderId: string;
        orderItemId: string;
        quantity: number;
        expiresAt: string;
        lowStockThreshold: number;
        now: string;
      };
    }
  | { type: 'ReleaseReservation'; data: { orderItemId: string; now: string } }
  | { type: 'DeliverReservation'; data: { orderItemId: string; now: string } }
  | {
      type: 'InvalidateItem';
      data: {
        offerId: string;
        supplierId: string;
        itemId: string;
        reason: string | null;
        lowStockThreshold: number;
        now: string;
      };
    };

export interface Reservation extends ReservationRef {
  state: 'reserved' | 'delivered' | 'released';
}

export interface InventoryItem {
  status: ItemStatus;
  fingerprint: string;
  /** Its place in `order`. */
  position: number;
}

/**
 * Built to change by what an event changes (the maps layered, the counts kept), never by the
 * offer's whole stock: an offer may hold 100,000 keys and take an order a second. Immutable:
 * a state a command folded but failed to append is simply dropped, and a cached state a
 * reader holds never changes (docs/decisions.md, "Inventory state").
 */
export interface InventoryState {
  items: VersionedMap<string, InventoryItem>;
  /** Fingerprints of every key that is or was sold here (removed ones may come back). */
  fingerprints: VersionedMap<string, string>;
  /** By order item id: which keys each order holds or got. */
  reservations: VersionedMap<string, Reservation>;
  /** Item ids in upload order: first uploaded, first sold. */
  order: GrowingList<string>;
  /** No item before this place in `order` is available, except those in `returned`. */
  nextAvailable: number;
  /** Places before `nextAvailable` of items available again (released), ascending. */
  returned: readonly number[];
  available: number;
  reserved: number;
  delivered: number;
}

export const emptyInventory: InventoryState = {
  items: VersionedMap.empty(),
  fingerprints: VersionedMap.empty(),
  reservations: VersionedMap.empty(),
  order: GrowingList.empty(),
  nextAvailable: 0,
  returned: [],
  available: 0,
  reserved: 0,
  delivered: 0,
};

type Counts = Pick<InventoryState, 'available' | 'reserved' | 'delivered'>;

const tally = (counts: Counts, status: ItemStatus, by: 1 | -1) => {
  if (status === 'available' || status === 'reserved' || status === 'delivered') counts[status] += by;
};

/**
 * The state with these items set: a new one goes to the end of the upload order, the counts
 * move by exactly the items whose status changed, and the place the next sale starts from
 * moves past what is no longer available. Costs the changed items (the cursor only moves
 * forward, so its walk is paid once per item over the stream's life).
 */
const withItems = (
  state: InventoryState,
  changed: ReadonlyMap<string, { status: ItemStatus; fingerprint: string }>,
): Pick<InventoryState, 'items' | 'order' | 'nextAvailable' | 'returned' | keyof Counts> => {
  const counts: Counts = { available: state.available, reserved: state.reserved, delivered: state.delivered };
  const appended: string[] = [];
  const entries: [string, InventoryItem][] = [];
  const leftBehind = new Set<number>();
  const back: number[] = [];
  for (const [id, next] of changed) {
    const before = state.items.get(id);
    const position = before?.position ?? state.order.length + appended.push(id) - 1;
    entries.push([id, { status: next.status, fingerprint: next.fingerprint, position }]);
    if (before) tally(counts, before.status, -1);
    tally(counts, next.status, 1);
    // below the cursor, `returned` lists exactly the available items
    if (position >= state.nextAvailable || before?.status === next.status) continue;
    if (before?.status === 'available') leftBehind.add(position);
    else if (next.status === 'available') back.push(position);
  }
  const items = state.items.with(entries);
  const order = state.order.concat(appended);
  let nextAvailable = state.nextAvailable;
  while (nextAvailable < order.length && items.get(order.at(nextAvailable)!)?.status !== 'available') nextAvailable++;
  const returned =
    leftBehind.size === 0 && back.length === 0
      ? state.returned
      : [...state.returned.filter((p) => !leftBehind.has(p)), ...back].sort((a, b) => a - b);
  return { items, order, nextAvailable, returned, ...counts };
};

const withStatus = (state: InventoryState, itemIds: readonly string[], status: ItemStatus) => {
  const changed = new Map<string, { status: ItemStatus; fingerprint: string }>();
  for (const id of itemIds) {
    const item = state.items.get(id);
    if (item) changed.set(id, { status, fingerprint: item.fingerprint });
  }
  return withItems(state, changed);
};

/** Fires when available stock moves from above the threshold to at or below it. */
export const stockLowCrossing = (
  offerId: string,
  before: number,
  after: number,
  threshold: number,
  at: string,
): InventoryEvent[] =>
  before > threshold && after <= threshold
    ? [{ type: 'OfferStockLow', data: { offerId, available: after, threshold, at } }]
    : [];

const setReservation = (state: InventoryState, ref: ReservationRef, reservationState: Reservation['state']) =>
  state.reservations.with([
    [
      ref.orderItemId,
      {
        offerId: ref.offerId,
        orderId: ref.orderId,
        orderItemId: ref.orderItemId,
        itemIds: ref.itemIds,
        state: reservationState,
      },
    ],
  ]);

/** An upload's items, each available or held under review, and its keys known from now on. */
const uploaded = (state: InventoryState, data: InventoryUploadedData): InventoryState => {
  const { itemIds, fingerprints, held } = data;
  if (itemIds.length === 0) return state;
  const heldPlaces = new Set(held.map((h) => h.place));
  const changed = new Map(
    itemIds.map((id, i) => [
      id,
      { status: heldPlaces.has(i) ? ('held' as const) : ('available' as const), fingerprint: fingerprints[i]! },
    ]),
  );
  return {
    ...state,
    ...withItems(state, changed),
    fingerprints: state.fingerprints.with(itemIds.map((id, i) => [fingerprints[i]!, id])),
  };
};

/** Items taken back: their keys may come back, as a removed key may. */
const withdrawn = (state: InventoryState, itemIds: readonly string[]): InventoryState => {
  const gone = itemIds.flatMap((id): [string, undefined][] => {
    const item = state.items.get(id);
    return item ? [[item.fingerprint, undefined]] : [];
  });
  return { ...state, ...withStatus(state, itemIds, 'removed'), fingerprints: state.fingerprints.with(gone) };
};

export const inventoryDecider: Decider<InventoryState, InventoryCommand, InventoryEvent> = {
  initialState: emptyInventory,

  evolve(state, event) {
    switch (event.type) {
      case 'InventoryUploaded':
        return uploaded(state, event.data);
      case 'InventoryItemRemoved': {
        const item = state.items.get(event.data.itemId);
        if (!item) return state;
        return {
          ...state,
          ...withStatus(state, [event.data.itemId], 'removed'),
          fingerprints: state.fingerprints.with([[item.fingerprint, undefined]]),
        };
      }
      case 'InventoryItemsWithdrawn':
        return withdrawn(state, event.data.itemIds);
      case 'InventoryItemsHeld':
        return { ...state, ...withStatus(state, event.data.itemIds, 'held') };
      case 'InventoryReviewCleared':
        return { ...state, ...withStatus(state, event.data.itemIds, 'available') };
      case 'OfferStockLow':
        return state;
      case 'InventoryReserved':
        return {
          ...state,
          ...withStatus(state, event.data.itemIds, 'reserved'),
          reservations: setReservation(state, event.data, 'reserved'),
        };
      case 'InventoryReleased':
        return {
          ...state,
          ...withStatus(state, event.data.itemIds, 'available'),
          reservations: setReservation(state, event.data, 'released'),
        };
      case 'InventoryDelivered':
        return {
          ...state,
          ...withStatus(state, event.data.itemIds, 'delivered'),
          reservations: setReservation(state, event.data, 'delivered'),
        };
      case 'InventoryItemInvalidated':
        // an invalidated key stays known: the same key uploaded again is still a duplicate
        return { ...state, ...withStatus(state, [event.data.itemId], 'invalidated') };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UploadInventory':
        return uploadInventory(state, command.data);
      case 'RemoveItem':
        return removeItem(state, command.data);
      case 'WithdrawItems':
        return withdrawItems(state, command.data);
      case 'HoldItems':
        return holdItems(state, command.data);
      case 'ClearReview':
        return clearReview(state, command.data);
      case 'ReserveItems':
        return reserveItems(state, command.data);
      case 'ReleaseReservation':
        return releaseReservation(state, command.data);
      case 'DeliverReservation':
        return deliverReservation(state, command.data);
      case 'InvalidateItem':
        return invalidateItem(state, command.data);
      default:
        return assertNever(command);
    }
  },
};

// ---- one function per command: what each decides, given the state as it stands

/** Statuses a supplier may take back: stock for sale, or held under review. */
const WITHDRAWABLE: ReadonlySet<ItemStatus> = new Set(['available', 'held']);

const uploadInventory = (
  state: InventoryState,
  data: CommandData<InventoryCommand, 'UploadInventory'>,
): InventoryEvent[] => {
  const { offerId, mode, now } = data;
  const rejected = [...data.rejected];
  const accepted: NewItem[] = [];
  const seen = new Set<string>();
  for (const item of data.items) {
    if (state.fingerprints.has(item.fingerprint))
      rejected.push({
        index: item.index,
        code: 'duplicate_key',
        message: "this key is already in the offer's stock",
      });
    else if (seen.has(item.fingerprint))
      rejected.push({
        index: item.index,
        code: 'duplicate_in_batch',
        message: 'this key appears earlier in the same upload',
      });
    else {
      seen.add(item.fingerprint);
      accepted.push(item);
    }
  }
  rejected.sort((a, b) => a.index - b.index);
  if (mode === 'strict' && rejected.length > 0)
    throw new DomainError('inventory_rejected', `${rejected.length} item(s) invalid; nothing was stored`, {
      rejected,
    });
  const files: UploadedFile[] = [];
  const held: HeldOnUpload[] = [];
  accepted.forEach((item, place) => {
    if (item.kind === 'file')
      files.push({ place, fileName: item.fileName!, contentType: item.contentType!, size: item.size });
    if (item.collidesWith) held.push({ place, ...item.collidesWith });
  });
  return [
    {
      type: 'InventoryUploaded',
      data: {
        offerId,
        itemIds: accepted.map((i) => i.itemId),
        fingerprints: accepted.map((i) => i.fingerprint),
        masks: accepted.map((i) => i.mask),
        files,
        held,
        rejected,
        at: now,
      },
    },
  ];
};

const removeItem = (state: InventoryState, data: CommandData<InventoryCommand, 'RemoveItem'>): InventoryEvent[] => {
  const { offerId, itemId, lowStockThreshold, now } = data;
  const item = state.items.get(itemId);
  if (!item || item.status === 'removed') throw new DomainError('not_found', `inventory item ${itemId} not found`);
  if (!WITHDRAWABLE.has(item.status))
    throw new DomainError(
      'invalid_state',
      `item ${itemId} is ${item.status}; only available items and items under review can be withdrawn`,
    );
  return [
    { type: 'InventoryItemRemoved', data: { offerId, itemId, at: now } },
    ...(item.status === 'available'
      ? stockLowCrossing(offerId, state.available, state.available - 1, lowStockThreshold, now)
      : []),
  ];
};

const withdrawItems = (
  state: InventoryState,
  data: CommandData<InventoryCommand, 'WithdrawItems'>,
): InventoryEvent[] => {
  const { offerId, lowStockThreshold, now } = data;
  const itemIds = [...new Set(data.itemIds)].filter((id) =>
    WITHDRAWABLE.has(state.items.get(id)?.status as ItemStatus),
  );
  if (itemIds.length === 0)
    throw new DomainError('invalid_state', 'none of these items is available or under review: nothing to withdraw');
  const available = itemIds.filter((id) => state.items.get(id)?.status === 'available').length;
  return [
    { type: 'InventoryItemsWithdrawn', data: { offerId, itemIds, at: now } },
    ...stockLowCrossing(offerId, state.available, state.available - available, lowStockThreshold, now),
  ];
};

/** Holds the available ones among these items; any other status keeps its course (a sale under way, a sold key). */
const holdItems = (state: InventoryState, data: CommandData<InventoryCommand, 'HoldItems'>): InventoryEvent[] => {
  const { offerId, reason, collidesWith, lowStockThreshold, now } = data;
  const itemIds = [...new Set(data.itemIds)].filter((id) => state.items.get(id)?.status === 'available');
  if (itemIds.length === 0) return [];
  return [
    { type: 'InventoryItemsHeld', data: { offerId, itemIds, reason, collidesWith, at: now } },
    ...stockLowCrossing(offerId, state.available, state.available - itemIds.length, lowStockThreshold, now),
  ];
};

const clearReview = (state: InventoryState, data: CommandData<InventoryCommand, 'ClearReview'>): InventoryEvent[] => {
  const itemIds = [...new Set(data.itemIds)].filter((id) => state.items.get(id)?.status === 'held');
  return itemIds.length === 0
    ? []
    : [{ type: 'InventoryReviewCleared', data: { offerId: data.offerId, itemIds, at: data.now } }];
};

const reserveItems = (state: InventoryState, data: CommandData<InventoryCommand, 'ReserveItems'>): InventoryEvent[] => {
  const { offerId, orderId, orderItemId, quantity, expiresAt, lowStockThreshold, now } = data;
  if (state.reservations.has(orderItemId)) return []; // a retried checkout step
  if (state.available < quantity)
    throw new DomainError('out_of_stock', `only ${state.available} key(s) available`, {
      available: state.available,
    });
  // first uploaded, first sold: the released ones below the cursor come first, by `returned`
  const itemIds: string[] = [];
  for (const position of state.returned) {
    if (itemIds.length === quantity) break;
    itemIds.push(state.order.at(position)!);
  }
  for (let p = state.nextAvailable; itemIds.length < quantity && p < state.order.length; p++) {
    const id = state.order.at(p)!;
    if (state.items.get(id)?.status === 'available') itemIds.push(id);
  }
  return [
    { type: 'InventoryReserved', data: { offerId, orderId, orderItemId, itemIds, expiresAt, at: now } },
    ...stockLowCrossing(offerId, state.available, state.available - quantity, lowStockThreshold, now),
  ];
};

const releaseReservation = (
  state: InventoryState,
  data: CommandData<InventoryCommand, 'ReleaseReservation'>,
): InventoryEvent[] => {
  const r = state.reservations.get(data.orderItemId);
  if (!r || r.state !== 'reserved') return [];
  const { state: _s, ...ref } = r;
  // keys invalidated while held do not return to stock
  const itemIds = ref.itemIds.filter((id) => state.items.get(id)?.status === 'reserved');
  return [{ type: 'InventoryReleased', data: { ...ref, itemIds, at: data.now } }];
};

const deliverReservation = (
  state: InventoryState,
  data: CommandData<InventoryCommand, 'DeliverReservation'>,
): InventoryEvent[] => {
  const r = state.reservations.get(data.orderItemId);
  if (!r) throw new DomainError('not_found', `no reservation for order item ${data.orderItemId}`);
  if (r.state === 'delivered') return [];
  if (r.state === 'released')
    throw new DomainError('invalid_state', `the reservation of order item ${data.orderItemId} was released`);
  const { state: _s, ...ref } = r;
  return [{ type: 'InventoryDelivered', data: { ...ref, at: data.now } }];
};

const invalidateItem = (
  state: InventoryState,
  data: CommandData<InventoryCommand, 'InvalidateItem'>,
): InventoryEvent[] => {
  const { offerId, supplierId, itemId, reason, lowStockThreshold, now } = data;
  const item = state.items.get(itemId);
  if (!item || item.status === 'removed') throw new DomainError('not_found', `inventory item ${itemId} not found`);
  if (item.status === 'invalidated') return [];
  if (item.status === 'reserved')
    throw new DomainError(
      'invalid_state',
      `item ${itemId} is reserved by a checkout; invalidate it once the order completes or expires`,
    );
  return [
    {
      type: 'InventoryItemInvalidated',
      data: { offerId, supplierId, itemId, previousStatus: item.status, reason, at: now },
    },
    ...(item.status === 'available'
      ? stockLowCrossing(offerId, state.available, state.available - 1, lowStockThreshold, now)
      : []),
  ];
};
