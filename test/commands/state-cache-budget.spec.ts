import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { handle, load, StreamStates } from '../../src/commands/handle.js';
import { heapBytesOf } from '../../src/commands/state-size.js';
import { type InventoryCommand, inventoryDecider, type InventoryState } from '../../src/domain/inventory.js';
import { InMemoryEventStore } from '../../src/eventstore/memory.js';
import { newId } from '../../src/ids.js';
import { at, folded, reserve, upload } from './folded-inventory.js';

/**
 * The command side's cache of folded states is bounded by the heap its states hold
 * (SVC_STATE_CACHE_MB), not by their number: filled past its budget it stays within it,
 * dropping the least recently used, and a command on a stream it dropped reads the stream
 * back whole and succeeds. The reckoning of a state's heap is checked against the heap itself.
 */
const execute = promisify(execFile);
describe('the state cache within its memory budget', () => {
  // the cache's behaviour is the write machinery's, not the store's: the in-memory adapter
  // (held to the same conformance suite as Postgres) serves
  const store = new InMemoryEventStore();

  const run = (streamId: string, command: InventoryCommand, cache: StreamStates) =>
    handle(store, streamId, inventoryDecider, [command], { at, metadata: {}, cache });

  it('reckons a state at about the heap it holds', async () => {
    // measured in a process of its own: a test worker's heap also moves with what other files free
    const { stdout } = await execute(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/commands/heap-reckoning.probe.ts', '2000x3', '100x200'],
      { cwd: process.cwd(), timeout: 60_000 },
    );
    const measured = JSON.parse(stdout) as { count: number; keys: number; ratio: number }[];
    expect(measured.map(({ count, keys }) => [count, keys])).toEqual([
      [2_000, 3],
      [100, 200],
    ]);
    for (const { count, keys, ratio } of measured) {
      // never much below the heap they hold (the budget would not hold), nor far above (it would be wasted)
      expect(ratio, `${count} states of ${keys} keys`).toBeGreaterThan(0.75);
      expect(ratio, `${count} states of ${keys} keys`).toBeLessThan(1.6);
    }
  });

  it('stays within its budget when filled past it, the least recently used going first', () => {
    const one = heapBytesOf(folded(20));
    const cache = new StreamStates({ maxBytes: 10 * one });
    const ids = Array.from({ length: 40 }, () => `inventory-${newId()}`);
    ids.forEach((streamId, i) => {
      cache.set(streamId, { decider: inventoryDecider, revision: 1, state: folded(20) });
      // the first stream is used all along: it stays
      if (i > 0) expect(cache.get(ids[0]!, inventoryDecider)?.revision).toBe(1);
      expect(cache.size.bytes).toBeLessThanOrEqual(10 * one);
    });
    const kept = ids.filter((id) => cache.get(id, inventoryDecider));
    expect(kept.length).toBeGreaterThanOrEqual(5);
    expect(kept.length).toBeLessThan(10);
    expect(kept[0]).toBe(ids[0]);
    // the rest are the last ones set
    expect(kept.slice(1)).toEqual(ids.slice(ids.length - (kept.length - 1)));
    expect(cache.size).toMatchObject({ streams: kept.length, maxBytes: 10 * one });
  });

  it('does not keep a state larger than its whole budget', () => {
    const cache = new StreamStates({ maxBytes: heapBytesOf(folded(5)) * 4 });
    cache.set('inventory-large', { decider: inventoryDecider, revision: 1, state: folded(500) });
    expect(cache.get('inventory-large', inventoryDecider)).toBeUndefined();
    expect(cache.size).toMatchObject({ streams: 0, bytes: 0 });
  });

  it('reads a stream it dropped back whole, and commands on it succeed', async () => {
    const cache = new StreamStates({ maxBytes: 3 * heapBytesOf(folded(10)) });
    const offerId = newId();
    const streamId = `inventory-${offerId}`;
    await run(streamId, upload(offerId, 10), cache);
    await run(streamId, reserve(offerId, 'oi1'), cache);
    expect(cache.get(streamId, inventoryDecider)?.revision).toBe(1);
    // other streams push it out
    for (let n = 0; n < 6; n++) {
      const other = newId();
      await run(`inventory-${other}`, upload(other, 10), cache);
    }
    expect(cache.get(streamId, inventoryDecider)).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(cache.size.maxBytes);

    const result = await run(streamId, reserve(offerId, 'oi2'), cache);
    const state = result.state as InventoryState;
    expect([state.reservations.has('oi1'), state.reservations.has('oi2'), state.available]).toEqual([true, true, 8]);
    const stored = await load(store, streamId, inventoryDecider);
    expect([stored.revision, (stored.state as InventoryState).available]).toEqual([2, 8]);
    expect(cache.get(streamId, inventoryDecider)).toMatchObject({ revision: 2, state: result.state });
  });

  it('measures a growing state again as it grows, so its reckoning keeps up', async () => {
    const cache = new StreamStates({ maxBytes: 64 * 2 ** 20 });
    const offerId = newId();
    const streamId = `inventory-${offerId}`;
    await run(streamId, upload(offerId, 5), cache);
    const small = cache.size.bytes;
    for (let n = 1; n <= 20; n++) await run(streamId, upload(offerId, 50, n * 50), cache);
    const grown = cache.get(streamId, inventoryDecider)!;
    const reckoned = cache.size.bytes;
    expect(reckoned).toBeGreaterThan(small);
    // within a quarter of a fresh measure (the cache's entry adds its key's share)
    expect(reckoned / heapBytesOf(grown.state)).toBeGreaterThan(0.75);
    expect(reckoned / heapBytesOf(grown.state)).toBeLessThan(1.6);
  });
});
