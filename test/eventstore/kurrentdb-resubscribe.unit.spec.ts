import { PassThrough } from 'node:stream';
import { AccessDeniedError, UnavailableError } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { CatchUp, type SubscribingClient } from '../../src/eventstore/kurrentdb.js';
import { ulidToUuid } from '../../src/eventstore/kurrentdb-mapping.js';
import { type Position, type RecordedEvent, START } from '../../src/eventstore/port.js';
import { newId } from '../../src/ids.js';
import { eventually } from './conformance.js';

/**
 * The adapter's own logic around KurrentDB's catch-up subscription, which no test here can
 * reach through a server: batching, skipping KurrentDB's events, resubscribing from the
 * last position handed over after a drop, and what is reported instead of retried. The
 * client is replaced by streams this test feeds, exactly as the client hands events over
 * (`{ event: { streamId, id, revision, type, data, metadata, created, position } }`); what
 * KurrentDB itself does is the conformance suite's, against a real node.
 */
class Calls implements SubscribingClient {
  readonly calls: { from: unknown; stream: PassThrough & { unsubscribed: boolean } }[] = [];

  subscribeToAll = ((options: { fromPosition: unknown }) => {
    const stream = Object.assign(new PassThrough({ objectMode: true }), {
      unsubscribed: false,
      unsubscribe: async () => {
        stream.unsubscribed = true;
        stream.end();
      },
    });
    this.calls.push({ from: options.fromPosition, stream });
    return stream;
  }) as unknown as SubscribingClient['subscribeToAll'];

  last() {
    return this.calls[this.calls.length - 1]!.stream;
  }
}

const at = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
const stored = (n: number, streamId = 'offer-1', type = 'OfferCreated') => {
  const id = newId();
  return {
    id,
    resolved: {
      event: {
        streamId,
        id: ulidToUuid(id),
        revision: BigInt(n),
        type,
        data: { n },
        metadata: { es_created_at: '2026-02-01T00:00:00.000Z' },
        created: new Date(),
        position: at(n),
      },
      commitPosition: BigInt(n),
    },
  };
};

describe('KurrentDB catch-up subscription', () => {
  it('hands over batches of ours only, resubscribes after a drop from the last position handed over, and repeats nothing', async () => {
    const client = new Calls();
    const seen: RecordedEvent[] = [];
    const batches: number[] = [];
    const warnings: string[] = [];
    const sub = new CatchUp(
      client,
      { from: START, onEvents: async (events) => void (batches.push(events.length), seen.push(...events)) },
      {
        warn: (fields) => void warnings.push(String(fields.resumeAt)),
      },
    );
    expect(client.calls.map((c) => c.from)).toEqual(['start']);

    const [e1, e2, e3, e4] = [stored(10), stored(30), stored(50), stored(70)];
    client.last().write(e1.resolved);
    client.last().write(stored(20, '$stats-127.0.0.1:2113', 'StatsCollected').resolved);
    client.last().write(e2.resolved);
    await eventually(() => seen.length === 2);
    expect(seen.map((e) => [e.id, e.position, e.data, e.createdAt.toISOString()])).toEqual([
      [e1.id, at(10), { n: 10 }, '2026-02-01T00:00:00.000Z'],
      [e2.id, at(30), { n: 30 }, '2026-02-01T00:00:00.000Z'],
    ]);

    // the node goes away: the call fails
    const first = client.last();
    first.emit('error', new UnavailableError());
    await eventually(() => client.calls.length === 2);
    expect(first.unsubscribed).toBe(true);
    expect(client.calls[1]!.from).toEqual(at(30));
    expect(warnings).toEqual(['30/30']);

    // the new call starts with what was already handed over: skipped
    client.last().write(e2.resolved);
    client.last().write(e3.resolved);
    client.last().write(e4.resolved);
    await eventually(() => seen.length === 4);
    expect(seen.map((e) => e.id)).toEqual([e1.id, e2.id, e3.id, e4.id]);

    // the server ends the call: the same as a drop
    client.last().end();
    await eventually(() => client.calls.length === 3);
    expect(client.calls[2]!.from).toEqual(at(70));

    await sub.close();
    expect(client.last().unsubscribed).toBe(true);
    expect(client.calls).toHaveLength(3);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('gives at most batchSize events to one call and waits for it before the next', async () => {
    const client = new Calls();
    const sizes: number[] = [];
    let busy = false;
    let overlapped = false;
    const sub = new CatchUp(client, {
      from: at(1),
      batchSize: 3,
      onEvents: async (events) => {
        overlapped ||= busy;
        busy = true;
        sizes.push(events.length);
        await new Promise((r) => setTimeout(r, 5));
        busy = false;
      },
    });
    expect(client.calls[0]!.from).toEqual(at(1));
    for (let n = 2; n <= 11; n++) client.last().write(stored(n).resolved);
    await eventually(() => sizes.reduce((a, b) => a + b, 0) === 10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    expect(overlapped).toBe(false);
    await sub.close();
  });

  it('reports a failing handler and an error a retry cannot mend, and stops', async () => {
    const handler = new Calls();
    const errors: unknown[] = [];
    const boom = new Error('projection failed');
    const failing = new CatchUp(handler, {
      from: START,
      onEvents: async () => Promise.reject(boom),
      onError: (e) => void errors.push(e),
    });
    handler.last().write(stored(5).resolved);
    await eventually(() => errors.length === 1);
    expect(errors[0]).toBe(boom);
    expect(handler.calls).toHaveLength(1);
    await failing.close();

    const denied = new Calls();
    const refusal = new AccessDeniedError(undefined);
    const stopped = new CatchUp(denied, {
      from: START,
      onEvents: async () => undefined,
      onError: (e) => void errors.push(e),
    });
    denied.last().emit('error', refusal);
    await eventually(() => errors.length === 2);
    expect(errors[1]).toBe(refusal);
    await new Promise((r) => setTimeout(r, 300));
    expect(denied.calls).toHaveLength(1);
    await stopped.close();
  });
});
