import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  type EventStore,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from '../../src/eventstore/port.js';
import { newId } from '../../src/ids.js';
import { eventually as waitFor } from '../support/eventually.js';

const at = new Date('2026-02-01T12:00:00.000Z');

/**
 * Waits until `check` holds; subscriptions deliver asynchronously. Bounded for a hang only:
 * on a busy machine, another file's open transaction on the shared server can hold the
 * readable head back for seconds.
 */
export const eventually = async (check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> =>
  void (await waitFor('the condition', check, { timeoutMs, everyMs: 5 }));

/** Waits until readers can see `position`. */
export const waitUntilReadable = (store: EventStore, position: Position) =>
  eventually(async () => comparePositions(await store.head(), position) >= 0);

/** The highest position among the last events of these streams. */
const lastWritten = async (store: EventStore, streams: string[]) => {
  let high = START;
  for (const s of streams) {
    const events = await store.readStream(s);
    const p = events[events.length - 1]?.position;
    if (p && comparePositions(p, high) > 0) high = p;
  }
  return high;
};

const readAllEvents = async (store: EventStore, from: Position = START) => {
  const out: RecordedEvent[] = [];
  for (let after = from; ;) {
    const page = await store.readAll(after, 100);
    if (page.length === 0) return out;
    out.push(...page);
    after = page[page.length - 1]!.position;
  }
};

/**
 * What every EventStore adapter must do, written against the port only: the Postgres
 * adapter runs it today, a KurrentDB adapter must pass the same suite.
 */
export const eventStoreConformance = (
  name: string,
  open: () => Promise<{ store: EventStore; close(): Promise<void> }>,
  /** Does the adapter append to several streams at once (the optional `appendMany`)? */
  options: { appendMany: boolean },
) =>
  describe(`event store conformance: ${name}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;
    const stream = (label: string) => `${label}-${newId()}`;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('appends to a new stream with no_stream; revisions start at 0', async () => {
      const s = stream('a');
      const result = await store.append(
        s,
        [
          { type: 'A', data: { n: 1 } },
          { type: 'B', data: { n: 2 } },
        ],
        'no_stream',
        at,
      );
      expect(result.nextRevision).toBe(1);
      const events = await store.readStream(s);
      expect(events.map((e) => [e.revision, e.type, e.data])).toEqual([
        [0, 'A', { n: 1 }],
        [1, 'B', { n: 2 }],
      ]);
      expect(events.every((e) => e.streamId === s && e.createdAt.getTime() === at.getTime())).toBe(true);
      expect(comparePositions(events[0]!.position, events[1]!.position)).toBe(-1);
      expect(result.position).toEqual(events[1]!.position);
    });

    it('checks every kind of expected revision and reports the actual one', async () => {
      const s = stream('b');
      await expect(store.append(s, [{ type: 'X', data: {} }], 'stream_exists', at)).rejects.toMatchObject({
        actual: 'no_stream',
      });
      await expect(store.append(s, [{ type: 'X', data: {} }], 0, at)).rejects.toBeInstanceOf(WrongExpectedRevision);
      await store.append(s, [{ type: 'X', data: {} }], 'no_stream', at);
      await expect(store.append(s, [{ type: 'X', data: {} }], 'no_stream', at)).rejects.toMatchObject({
        streamId: s,
        expected: 'no_stream',
        actual: 0,
      });
      await expect(store.append(s, [{ type: 'X', data: {} }], 5, at)).rejects.toMatchObject({ expected: 5, actual: 0 });
      expect((await store.append(s, [{ type: 'X', data: {} }], 0, at)).nextRevision).toBe(1);
      expect((await store.append(s, [{ type: 'X', data: {} }], 'stream_exists', at)).nextRevision).toBe(2);
      expect((await store.append(s, [{ type: 'X', data: {} }], 'any', at)).nextRevision).toBe(3);
      expect((await store.append(stream('c'), [{ type: 'X', data: {} }], 'any', at)).nextRevision).toBe(0);
      expect((await store.readStream(s)).map((e) => e.revision)).toEqual([0, 1, 2, 3]);
    });

    it('reads a stream from a revision; an unknown stream reads empty', async () => {
      const s = stream('d');
      await store.append(
        s,
        [1, 2, 3, 4].map((n) => ({ type: 'N', data: { n } })),
        'no_stream',
        at,
      );
      expect((await store.readStream(s, 2)).map((e) => e.data)).toEqual([{ n: 3 }, { n: 4 }]);
      expect(await store.readStream(stream('nobody'))).toEqual([]);
    });

    it('keeps caller-given event ids and the metadata', async () => {
      const s = stream('e');
      const id = newId();
      const metadata = { correlation_id: 'c-1', causation_id: 'e-0', supplier_id: 's-1', mode: 'test' as const };
      await store.append(s, [{ id, type: 'T', data: { ok: true }, metadata }], 'no_stream', at);
      const [event] = await store.readStream(s);
      expect(event).toMatchObject({ id, type: 'T', data: { ok: true }, metadata });
    });

    it('keeps each event schema version in every read; an event appended without one is at version 1', async () => {
      const before = await store.head();
      const s = stream('v');
      const written = await store.append(
        s,
        [
          { type: 'V', data: { n: 1 } },
          { type: 'V', data: { n: 2 }, schemaVersion: 3 },
          { type: 'V', data: { n: 3 }, schemaVersion: 1 },
          { type: 'W', data: { n: 4 }, schemaVersion: 32_767 },
        ],
        'no_stream',
        at,
      );
      const read = await store.readStream(s);
      expect(read.map((e) => [e.type, e.data, e.schemaVersion])).toEqual([
        ['V', { n: 1 }, 1],
        ['V', { n: 2 }, 3],
        ['V', { n: 3 }, 1],
        ['W', { n: 4 }, 32_767],
      ]);
      // the version is not metadata: nothing of it shows there
      expect(read.map((e) => e.metadata)).toEqual([{}, {}, {}, {}]);
      await waitUntilReadable(store, written.position);
      expect((await readAllEvents(store, before)).filter((e) => e.streamId === s).map((e) => e.schemaVersion)).toEqual([
        1, 3, 1, 32_767,
      ]);
      const seen: RecordedEvent[] = [];
      const sub = store.subscribe({
        from: before,
        onEvents: async (events) => void seen.push(...events.filter((e) => e.streamId === s)),
      });
      await eventually(() => seen.length === 4);
      await sub.close();
      expect(seen.map((e) => e.schemaVersion)).toEqual([1, 3, 1, 32_767]);
      // a version that is not an integer from 1 to 32767 is refused, and nothing is written
      for (const bad of [0, 1.5, 32_768])
        await expect(store.append(s, [{ type: 'V', data: {}, schemaVersion: bad }], 3, at)).rejects.toThrow(
          `event type V: schema version must be an integer`,
        );
      expect(await store.readStream(s, 4)).toEqual([]);
    });

    it('reads all in global order, after a position, with a limit, consistent with each stream', async () => {
      const before = await store.head();
      const s1 = stream('f');
      const s2 = stream('g');
      await store.append(s1, [{ type: 'F', data: { i: 0 } }], 'no_stream', at);
      await store.append(s2, [{ type: 'G', data: { i: 0 } }], 'no_stream', at);
      const last = await store.append(
        s1,
        [
          { type: 'F', data: { i: 1 } },
          { type: 'F', data: { i: 2 } },
        ],
        0,
        at,
      );
      // committed is not yet readable while an older transaction (anywhere) still runs, but
      // it is the last committed at once
      expect(comparePositions(await store.lastCommitted(), last.position)).toBeGreaterThanOrEqual(0);
      await waitUntilReadable(store, last.position);
      const mine = (await readAllEvents(store, before)).filter((e) => e.streamId === s1 || e.streamId === s2);
      expect(mine.map((e) => `${e.streamId === s1 ? 'f' : 'g'}${e.revision}`)).toEqual(['f0', 'g0', 'f1', 'f2']);
      const two = await store.readAll(before, 2);
      expect(two).toHaveLength(2);
      const rest = await store.readAll(two[1]!.position, 1000);
      expect(rest.every((e) => comparePositions(e.position, two[1]!.position) > 0)).toBe(true);
      expect(comparePositions(await store.head(), mine[3]!.position)).toBeGreaterThanOrEqual(0);
    });

    it('tells its history: the last committed event, and whether an event is still where it was read', async () => {
      const s = stream('h');
      await store.append(s, [{ type: 'H', data: { n: 1 } }], 'no_stream', at);
      const [first] = await store.readStream(s);
      const written = await store.append(s, [{ type: 'H', data: { n: 2 } }], 0, at);
      const second = (await store.readStream(s, 1))[0]!;
      const history = await store.history({ id: second.id, position: second.position });
      expect(history.witnessed).toBe(true);
      expect(comparePositions(history.head, written.position)).toBeGreaterThanOrEqual(0);
      expect(comparePositions(history.head, await store.lastCommitted())).toBeLessThanOrEqual(0);
      // the same id elsewhere, another id at its position: neither is the event that was read
      expect((await store.history({ id: second.id, position: first!.position })).witnessed).toBe(false);
      expect((await store.history({ id: newId(), position: second.position })).witnessed).toBe(false);
      expect((await store.history()).witnessed).toBeUndefined();
    });

    it('subscribes: catches up from a position, then receives live appends, until closed', async () => {
      const from = await store.head();
      const s = stream('h');
      await store.append(s, [{ type: 'Old', data: {} }], 'no_stream', at);
      const seen: RecordedEvent[] = [];
      const sub = store.subscribe({
        from,
        onEvents: async (events) => void seen.push(...events.filter((e) => e.streamId === s)),
      });
      await eventually(() => seen.length === 1);
      await store.append(s, [{ type: 'New', data: {} }], 0, at);
      await eventually(() => seen.length === 2);
      expect(seen.map((e) => e.type)).toEqual(['Old', 'New']);
      await sub.close();
      await store.append(s, [{ type: 'AfterClose', data: {} }], 1, at);
      await new Promise((r) => setTimeout(r, 100));
      expect(seen.map((e) => e.type)).toEqual(['Old', 'New']);
    });

    it('delivers every event exactly once, in an order consistent with each stream, under 8 concurrent appenders', async () => {
      const from = await store.head();
      const run = newId();
      const seen: RecordedEvent[] = [];
      const sub = store.subscribe({
        from,
        batchSize: 37,
        onEvents: async (events) => void seen.push(...events.filter((e) => (e.data as { run?: string }).run === run)),
      });
      const shared = [stream('shared'), stream('shared')];
      const writers = Array.from({ length: 8 }, (_, w) => async () => {
        const own = stream(`own${w}`);
        let ownRevision: number | 'no_stream' = 'no_stream';
        for (let i = 0; i < 40; i++) {
          const data = { run, writer: w, i };
          if (i % 3 === 0) {
            // contended streams: read, then append at the revision read, retrying on conflict
            const target = shared[i % 2]!;
            for (;;) {
              const events = await store.readStream(target);
              const expected = events.length === 0 ? 'no_stream' : events[events.length - 1]!.revision;
              try {
                await store.append(target, [{ type: 'Shared', data }], expected, at);
                break;
              } catch (error) {
                if (!(error instanceof WrongExpectedRevision)) throw error;
              }
            }
          } else if (i % 3 === 1) {
            const result = await store.append(
              own,
              [
                { type: 'Own', data },
                { type: 'Own', data: { ...data, second: true } },
              ],
              ownRevision,
              at,
            );
            ownRevision = result.nextRevision;
          } else {
            await store.append(shared[(i + w) % 2]!, [{ type: 'Any', data }], 'any', at);
          }
        }
        return own;
      });
      const owns = await Promise.all(writers.map((w) => w()));
      // 8 writers x (14 shared + 13 own x 2 + 13 any)
      await waitUntilReadable(store, await lastWritten(store, [...shared, ...owns]));
      const written = (await readAllEvents(store, from)).filter((e) => (e.data as { run?: string }).run === run);
      expect(written).toHaveLength(8 * (14 + 26 + 13));
      await eventually(() => seen.length >= written.length, 20_000);
      await sub.close();
      expect(seen.length).toBe(written.length);
      expect(new Set(seen.map((e) => e.id)).size).toBe(written.length);
      expect(seen.map((e) => e.id)).toEqual(written.map((e) => e.id));
      for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBe(-1);
      const lastRevision = new Map<string, number>();
      for (const e of seen) {
        const previous = lastRevision.get(e.streamId) ?? -1;
        expect(e.revision).toBeGreaterThan(previous);
        lastRevision.set(e.streamId, e.revision);
      }
    });

    describe.runIf(options.appendMany)('appends to several streams at once', () => {
      const many = (...args: Parameters<NonNullable<EventStore['appendMany']>>) => {
        if (!store.appendMany) throw new Error(`${name} has no appendMany`);
        return store.appendMany(...args);
      };

      it("writes every part, new streams and old, in the order given; each result is its own part's", async () => {
        const [a, b, c] = [stream('ma'), stream('mb'), stream('mc')];
        await store.append(b, [{ type: 'Before', data: {} }], 'no_stream', at);
        const results = await many(
          [
            {
              streamId: a,
              events: [
                { type: 'A1', data: { n: 1 } },
                { type: 'A2', data: { n: 2 } },
              ],
              expected: 'no_stream',
            },
            { streamId: b, events: [{ type: 'B1', data: { n: 3 } }], expected: 0 },
            { streamId: c, events: [{ type: 'C1', data: { n: 4 } }], expected: 'no_stream' },
          ],
          at,
        );
        expect(results.map((r) => r.nextRevision)).toEqual([1, 1, 0]);
        const [ea, eb, ec] = [await store.readStream(a), await store.readStream(b), await store.readStream(c)];
        expect([ea, eb, ec].map((events) => events.map((e) => [e.revision, e.type, e.data]))).toEqual([
          [
            [0, 'A1', { n: 1 }],
            [1, 'A2', { n: 2 }],
          ],
          [
            [0, 'Before', {}],
            [1, 'B1', { n: 3 }],
          ],
          [[0, 'C1', { n: 4 }]],
        ]);
        expect(results.map((r) => r.position)).toEqual([ea[1]!.position, eb[1]!.position, ec[0]!.position]);
        // the parts' events follow each other in the global order, in the order given
        const order = [ea[0]!, ea[1]!, eb[1]!, ec[0]!].map((e) => e.position);
        for (let i = 1; i < order.length; i++) expect(comparePositions(order[i - 1]!, order[i]!)).toBe(-1);
        await waitUntilReadable(store, results[2]!.position);
        const all = await readAllEvents(store, eb[0]!.position);
        expect(all.filter((e) => [a, b, c].includes(e.streamId)).map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'C1']);
      });

      it('writes nothing when one part names a wrong revision, and says which stream', async () => {
        const [a, b, c] = [stream('na'), stream('nb'), stream('nc')];
        await store.append(b, [{ type: 'Before', data: {} }], 'no_stream', at);
        await store.append(c, [{ type: 'Before', data: {} }], 'no_stream', at);
        const parts = (bExpected: 'no_stream' | number, cExpected: 'no_stream' | number) => [
          { streamId: a, events: [{ type: 'A', data: {} }], expected: 'no_stream' as const },
          { streamId: b, events: [{ type: 'B', data: {} }], expected: bExpected },
          { streamId: c, events: [{ type: 'C', data: {} }], expected: cExpected },
        ];
        await expect(many(parts(0, 3), at)).rejects.toMatchObject({ streamId: c, expected: 3, actual: 0 });
        await expect(many(parts('no_stream', 0), at)).rejects.toMatchObject({
          streamId: b,
          expected: 'no_stream',
          actual: 0,
        });
        expect(await store.readStream(a)).toEqual([]);
        expect((await store.readStream(b)).map((e) => e.type)).toEqual(['Before']);
        expect((await store.readStream(c)).map((e) => e.type)).toEqual(['Before']);
        await expect(many(parts(0, 0), at)).resolves.toHaveLength(3);
        expect((await store.readStream(c)).map((e) => e.type)).toEqual(['Before', 'C']);
      });

      it('lets one of two racing writes to overlapping streams win whole; the other writes nothing', async () => {
        const shared = stream('ms');
        const [x, y] = [stream('mx'), stream('my')];
        await store.append(shared, [{ type: 'Before', data: {} }], 'no_stream', at);
        const outcomes = await Promise.all(
          [x, y].map((own) =>
            many(
              [
                { streamId: own, events: [{ type: 'Own', data: { own } }], expected: 'no_stream' },
                { streamId: shared, events: [{ type: 'Shared', data: { own } }], expected: 0 },
              ],
              at,
            ).then(
              () => 'won',
              (error: unknown) => (error instanceof WrongExpectedRevision ? 'lost' : String(error)),
            ),
          ),
        );
        expect([...outcomes].sort()).toEqual(['lost', 'won']);
        const winner = outcomes[0] === 'won' ? x : y;
        const loser = winner === x ? y : x;
        expect((await store.readStream(shared)).map((e) => [e.type, e.data])).toEqual([
          ['Before', {}],
          ['Shared', { own: winner }],
        ]);
        expect((await store.readStream(winner)).map((e) => e.type)).toEqual(['Own']);
        expect(await store.readStream(loser)).toEqual([]);
      });

      it('refuses a stream named twice or a part without events, writing nothing', async () => {
        const [a, b] = [stream('ra'), stream('rb')];
        const one = { type: 'E', data: {} };
        await expect(
          many(
            [
              { streamId: a, events: [one], expected: 'no_stream' },
              { streamId: a, events: [one], expected: 0 },
            ],
            at,
          ),
        ).rejects.toThrow('names each stream once');
        await expect(
          many(
            [
              { streamId: a, events: [one], expected: 'no_stream' },
              { streamId: b, events: [], expected: 'no_stream' },
            ],
            at,
          ),
        ).rejects.toThrow(`none for ${b}`);
        expect([await store.readStream(a), await store.readStream(b)]).toEqual([[], []]);
      });
    });
  });
