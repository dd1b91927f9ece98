import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle, load, StreamStates } from '../../src/commands/handle.js';
import { connect, type Db } from '../../src/db/connect.js';
import { type InventoryCommand, inventoryDecider, type InventoryState } from '../../src/domain/inventory.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase } from '../support/database.js';

/**
 * A cached state of a stream the store no longer holds in full (it went back in time): the
 * command's append names a revision the stream does not reach. The state is of a lost
 * history, so the command forgets it and decides on the stream as stored, instead of
 * folding the stored tail onto it (and conflicting on every attempt). And a command under
 * way when the cache is cleared does not put back what it folded from what was cleared.
 */
const at = new Date('2026-01-05T10:00:00.000Z');
const now = at.toISOString();

const reserve = (offerId: string, orderItemId: string): InventoryCommand => ({
  type: 'ReserveItems',
  data: {
    offerId,
    orderId: `ord-${orderItemId}`,
    orderItemId,
    quantity: 1,
    expiresAt: '2026-01-05T10:15:00.000Z',
    lowStockThreshold: 0,
    now,
  },
});

describe('a cached state when the store went back in time', () => {
  let db: Db;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = connect(await createTestDatabase(), 4);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  const run = (streamId: string, command: InventoryCommand, cache: StreamStates) =>
    handle(store, streamId, inventoryDecider, [command], { at, metadata: {}, cache });

  /** An offer's inventory stream with three keys, its state cached. */
  const stocked = async (cache: StreamStates) => {
    const offerId = newId();
    const streamId = `inventory-${offerId}`;
    const items = [1, 2, 3].map((n) => ({
      itemId: `${offerId}-i${n}`,
      index: n - 1,
      kind: 'text' as const,
      fingerprint: `${offerId}-f${n}`,
      fileName: null,
      contentType: null,
      mask: `AB••••••000${n}`,
      size: null,
    }));
    await run(
      streamId,
      { type: 'UploadInventory', data: { offerId, mode: 'strict', items, rejected: [], now } },
      cache,
    );
    return { offerId, streamId };
  };

  it('forgets a state past the stored stream and decides on the stream as stored', async () => {
    const cache = new StreamStates();
    const { offerId, streamId } = await stocked(cache);
    await run(streamId, reserve(offerId, 'oi1'), cache);
    expect(cache.get(streamId, inventoryDecider)?.revision).toBe(1);
    // the reservation is lost (a restore from before it)
    await db.pool.query('delete from es_events where stream_id = $1 and stream_revision = 1', [streamId]);

    const result = await run(streamId, reserve(offerId, 'oi2'), cache);
    expect((result.state as InventoryState).reservations.has('oi1')).toBe(false);
    expect((result.state as InventoryState).reservations.has('oi2')).toBe(true);
    const stored = await load(store, streamId, inventoryDecider);
    expect([stored.revision, (stored.state as InventoryState).available]).toEqual([1, 2]);
    expect(cache.get(streamId, inventoryDecider)).toMatchObject({ revision: 1, state: result.state });
  });

  it('drops what a command folded from a cache cleared while it ran', async () => {
    const cache = new StreamStates();
    const { offerId, streamId } = await stocked(cache);
    // the store as it is, but the cache is cleared while the command's append travels
    const clearing = Object.create(store, {
      append: {
        value: (...args: Parameters<PostgresEventStore['append']>) => {
          cache.clear();
          return store.append(...args);
        },
      },
    }) as PostgresEventStore;
    const result = await handle(clearing, streamId, inventoryDecider, [reserve(offerId, 'oi1')], {
      at,
      metadata: {},
      cache,
    });
    expect(result.events).toHaveLength(1);
    expect(cache.get(streamId, inventoryDecider)).toBeUndefined();
  });
});
