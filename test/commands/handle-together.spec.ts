import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle, load, StreamStates } from '../../src/commands/handle.js';
import { handleTogether, streamOf, type Writes } from '../../src/commands/handle-together.js';
import { connect, type Db } from '../../src/db/connect.js';
import type { Decider } from '../../src/domain/decider.js';
import { DomainError } from '../../src/domain/errors.js';
import { overriding } from '../../src/eventstore/overriding.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Writes to several streams decided together (handleTogether) on a real store: one append
 * for all of them, decided again on the stored states after a conflict, queued in this
 * process as single-stream commands are.
 */
interface Count {
  n: number;
}
type CountCommand = { type: 'Add'; data: { by: number; max?: number } };
type CountEvent = { type: 'Added'; data: { by: number } };

/** A counter that refuses to pass its max. */
const counter: Decider<Count, CountCommand, CountEvent> = {
  initialState: { n: 0 },
  evolve: (state, event) => ({ n: state.n + event.data.by }),
  decide: (command, state) => {
    if (command.data.by === 0) return [];
    if (command.data.max !== undefined && state.n + command.data.by > command.data.max)
      throw new DomainError('validation_failed', `past ${command.data.max}`);
    return [{ type: 'Added', data: { by: command.data.by } }];
  },
};
const add = (by: number, max?: number): CountCommand => ({
  type: 'Add',
  data: { by, ...(max !== undefined && { max }) },
});
const at = new Date('2026-03-01T09:00:00.000Z');

describe('decisions on several streams written together', () => {
  let db: Db;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 8);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  const streams = (n: number) => Array.from({ length: n }, () => `count-${newId()}`);
  const countOf = async (s: string) => (await load(store, s, counter)).state.n;
  const transactionsOf = async (ids: string[]) =>
    (
      await db.pool.query<{ n: number }>(
        'select count(distinct transaction_id)::int as n from es_events where stream_id = any($1)',
        [ids],
      )
    ).rows[0]!.n;
  /** Moves what `a` holds beyond 10 to `b`: the second decision uses the first's state. */
  const overflow =
    (a: string, b: string, by: number) =>
    (writes: Writes): number => {
      const first = writes.on(a, counter, [add(by)]).state.n;
      if (first > 10) writes.on(b, counter, [add(first - 10)]);
      return first;
    };
  const together = (ids: string[], decide: (w: Writes) => number, cache?: StreamStates, on: EventStore = store) =>
    handleTogether(
      on,
      ids.map((s) => streamOf(s, counter)),
      decide,
      { at, metadata: { mode: 'test' }, ...(cache && { cache }) },
    );

  it('appends what it decided on every stream in one transaction, and caches the states it left', async () => {
    const [a, b] = streams(2);
    const cache = new StreamStates();
    const first = await together([a!, b!], overflow(a!, b!, 12), cache);
    expect(first.result).toBe(12);
    expect([await countOf(a!), await countOf(b!)]).toEqual([12, 2]);
    expect(await transactionsOf([a!, b!])).toBe(1);
    expect(first.position).toEqual((await store.readStream(b!))[0]!.position);
    // the cache holds both states as written: a command on it appends at the right revision
    expect(cache.get(a!, counter)).toMatchObject({ revision: 0, state: { n: 12 } });
    expect(cache.get(b!, counter)).toMatchObject({ revision: 0, state: { n: 2 } });
    await handle(store, b!, counter, [add(1)], { at, metadata: {}, cache });
    expect(await countOf(b!)).toBe(3);
  });

  it('decides again on the stored states when another writer moved a stream its cached state came from', async () => {
    const [a, b] = streams(2);
    const cache = new StreamStates();
    await together([a!, b!], overflow(a!, b!, 5), cache);
    // a writer elsewhere (no cache) adds 6 to a: the cached 5 is stale
    await handle(store, a!, counter, [add(6)], { at, metadata: {} });
    const again = await together([a!, b!], overflow(a!, b!, 1), cache);
    expect(again.result).toBe(12);
    expect([await countOf(a!), await countOf(b!)]).toEqual([12, 2]);
    expect((await store.readStream(b!)).map((e) => e.data)).toEqual([{ by: 2 }]);
  });

  it('writes nothing when a decision refuses on the stored states', async () => {
    const [a, b] = streams(2);
    await handle(store, b!, counter, [add(4)], { at, metadata: {} });
    const refused = together([a!, b!], (w) => {
      w.on(a!, counter, [add(3)]);
      return w.on(b!, counter, [add(3, 5)]).state.n;
    });
    await expect(refused).rejects.toThrow('past 5');
    expect([await countOf(a!), await countOf(b!)]).toEqual([0, 4]);
  });

  it('refuses a stream it was not given, writing nothing', async () => {
    const [a, b, c] = streams(3);
    const stray = together([a!, b!], (w) => {
      w.on(a!, counter, [add(1)]);
      return w.on(c!, counter, [add(1)]).state.n;
    });
    await expect(stray).rejects.toThrow(`stream ${c!} was not named`);
    expect(await countOf(a!)).toBe(0);
  });

  it('queues writes together on overlapping streams, named in any order, behind each other in this process', async () => {
    const [a, b] = streams(2);
    const cache = new StreamStates();
    let conflicts = 0;
    const counted = <T>(write: Promise<T>) =>
      write.catch((error: unknown) => {
        conflicts++;
        throw error;
      });
    const watched = overriding(store, {
      append: (...args) => counted(store.append(...args)),
      appendMany: (...args) => counted(store.appendMany(...args)),
    });
    const both = (w: Writes) => w.on(a!, counter, [add(1)]).state.n + w.on(b!, counter, [add(1)]).state.n;
    const runs = Array.from({ length: 30 }, (_, i) => {
      // the same two streams named in both orders: taken in one order, they never wait in a circle
      if (i % 3 === 0) return together([a!, b!], both, cache, watched);
      if (i % 3 === 1) return together([b!, a!], both, cache, watched);
      return handle(watched, b!, counter, [add(1)], { at, metadata: {}, cache });
    });
    await Promise.all(runs);
    expect([await countOf(a!), await countOf(b!)]).toEqual([20, 30]);
    // no write lost a race and went again: each waited for the one before
    expect(conflicts).toBe(0);
    expect(await transactionsOf([a!, b!])).toBe(30);
  });

  it('appends one stream after another, in the order named, on a store without appendMany', async () => {
    const [a, b] = streams(2);
    const appends: string[] = [];
    const sequential = overriding(store, {
      append: (streamId, events, expected, when, options) => {
        appends.push(streamId);
        return store.append(streamId, events, expected, when, options);
      },
    });
    await together([a!, b!], overflow(a!, b!, 13), undefined, sequential);
    expect(appends).toEqual([a, b]);
    expect(await transactionsOf([a!, b!])).toBe(2);
    expect([await countOf(a!), await countOf(b!)]).toEqual([13, 3]);
  });
});
