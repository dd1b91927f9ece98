import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle, load, StreamStates } from '../../src/commands/handle.js';
import { connect, type Db } from '../../src/db/connect.js';
import {
  type InventoryCommand,
  inventoryDecider,
  type InventoryEvent,
  type InventoryState,
} from '../../src/domain/inventory.js';
import { WrongExpectedRevision } from '../../src/eventstore/port.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { newId } from '../../src/ids.js';
import { startDatabaseRelay } from '../faults/support.js';
import { createTestDatabase } from '../support/database.js';

/**
 * The inventory state is cached and shared (StreamStates): a command that decides on a cached
 * state and then fails to append must leave that state, and the cache, as they were. The
 * database is real; a relay between it and the store cuts the connection for the failure.
 */
const at = new Date('2026-01-05T10:00:00.000Z');
const now = at.toISOString();

const byKey = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : 1));
/** Everything a reader of the state can see, as plain values. */
const view = (s: InventoryState) => ({
  items: byKey(s.items.entries()),
  fingerprints: byKey(s.fingerprints.entries()),
  reservations: byKey(s.reservations.entries()),
  order: [...s.order],
  nextAvailable: s.nextAvailable,
  returned: [...s.returned],
  counts: { available: s.available, reserved: s.reserved, delivered: s.delivered },
});

const reserve = (offerId: string, orderItemId: string, quantity: number): InventoryCommand => ({
  type: 'ReserveItems',
  data: {
    offerId,
    orderId: `ord-${orderItemId}`,
    orderItemId,
    quantity,
    expiresAt: '2026-01-05T10:15:00.000Z',
    lowStockThreshold: 0,
    now,
  },
});

describe('a cached inventory state when an append fails', () => {
  let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
  let db: Db;
  let store: PostgresEventStore;

  beforeAll(async () => {
    relay = await startDatabaseRelay(await createTestDatabase());
    db = connect(relay.url, 4);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
    await relay?.close();
  });

  /** An offer's inventory stream with three keys, its state cached. */
  const stocked = async () => {
    const offerId = newId();
    const streamId = `inventory-${offerId}`;
    const cache = new StreamStates();
    const items = [1, 2, 3].map((n) => ({
      itemId: `${offerId}-i${n}`,
      index: n - 1,
      kind: 'text' as const,
      fingerprint: `${offerId}-f${n}`,
      fileName: null,
      contentType: null,
      mask: '',
      size: null,
    }));
    const uploaded = await handle(
      store,
      streamId,
      inventoryDecider,
      [{ type: 'UploadInventory', data: { offerId, mode: 'strict', items, rejected: [], now } }],
      { at, metadata: {}, cache },
    );
    return { offerId, streamId, cache, ids: items.map((i) => i.itemId), state: uploaded.state };
  };
  const run = (streamId: string, command: InventoryCommand, cache: StreamStates) =>
    handle(store, streamId, inventoryDecider, [command], { at, metadata: {}, cache });
  /** Another instance's append, which this process's cache does not see. */
  const elsewhere = (streamId: string, revision: number, event: InventoryEvent) =>
    store.append(streamId, [{ type: event.type, data: event.data, metadata: {} }], revision, at);
  const reservedElsewhere = (offerId: string, itemIds: string[]): InventoryEvent => ({
    type: 'InventoryReserved',
    data: { offerId, orderId: 'ord-x', orderItemId: 'oi-x', itemIds, expiresAt: now, at: now },
  });

  it('a conflict: the decision on the stale cached state is dropped, the state is as it was, the retry decides on the stored one', async () => {
    const { offerId, streamId, cache, ids, state } = await stocked();
    const seen = view(state);
    expect(cache.get(streamId, inventoryDecider)?.state).toBe(state);
    await elsewhere(streamId, 0, reservedElsewhere(offerId, [ids[0]!]));

    // decided first on the cached state (it would take the first key), refused at revision 0
    const result = await run(streamId, reserve(offerId, 'oi1', 1), cache);
    expect(result.events.map((e) => e.data)).toEqual([
      {
        offerId,
        orderId: 'ord-oi1',
        orderItemId: 'oi1',
        itemIds: [ids[1]],
        expiresAt: '2026-01-05T10:15:00.000Z',
        at: now,
      },
    ]);
    expect(view(state)).toEqual(seen);
    expect(view(result.state).counts).toEqual({ available: 1, reserved: 2, delivered: 0 });
    expect(cache.get(streamId, inventoryDecider)).toMatchObject({ revision: 2, state: result.state });
  });

  it('a conflict the stored state refuses: the command fails, the cache holds the stored state, never what the command folded', async () => {
    const { offerId, streamId, cache, ids, state } = await stocked();
    const seen = view(state);
    await elsewhere(streamId, 0, reservedElsewhere(offerId, ids));

    let thrown: unknown;
    await run(streamId, reserve(offerId, 'oi1', 2), cache).catch((error: unknown) => (thrown = error));
    expect(thrown).toMatchObject({ code: 'out_of_stock', extensions: { available: 0 } });
    expect(view(state)).toEqual(seen);
    const cached = cache.get(streamId, inventoryDecider)!;
    expect(cached.revision).toBe(1);
    expect(view(cached.state as InventoryState)).toEqual(view((await load(store, streamId, inventoryDecider)).state));
    expect((cached.state as InventoryState).reservations.get('oi1')).toBeUndefined();
  });

  it('a lost database: the append fails, the state is as it was, the cache forgets the stream, nothing was stored', async () => {
    const { offerId, streamId, cache, state } = await stocked();
    const seen = view(state);
    relay.cut();
    let thrown: unknown;
    try {
      await run(streamId, reserve(offerId, 'oi1', 2), cache).catch((error: unknown) => (thrown = error));
    } finally {
      relay.restore();
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(WrongExpectedRevision);
    expect(view(state)).toEqual(seen);
    expect(cache.get(streamId, inventoryDecider)).toBeUndefined();
    const stored = await load(store, streamId, inventoryDecider, cache);
    expect(stored.revision).toBe(0);
    expect(view(stored.state)).toEqual(seen);
  });
});
