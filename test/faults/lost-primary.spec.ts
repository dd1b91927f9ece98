import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_WAIT_MS } from '../../src/db/reachability.js';
import { createUploaded, textKeys, upload } from '../offers/fixtures.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { type Answer } from '../support/http.js';
import { eventually, expectUnavailable, startDatabaseRelay } from './support.js';

/**
 * The primary lost while requests need it, as a failover loses it: the network to it is
 * cut (the relay), while the read models are held still by a lock, so a read has this
 * instance's last write still to wait for. A read stops waiting once the primary has been
 * lost for READ_WAIT_MS: a replica answers with what it has, and without one the read
 * answers 503 with Retry-After, long before the read models' own wait (30 s) would end.
 * A write caught in it answers 503, and its Idempotency-Key is free for the retry as soon
 * as the database is back, not when its lease lapses.
 */
describe('a lost primary', () => {
  let directUrl: string;
  const relays: Awaited<ReturnType<typeof startDatabaseRelay>>[] = [];
  const services: TestService[] = [];

  const relay = async () => {
    const made = await startDatabaseRelay(directUrl);
    relays.push(made);
    return made;
  };
  const start = async (primary: string, replica?: string) => {
    const svc = await startTestService({ databaseUrl: primary, ...(replica && { readDatabaseUrl: replica }) });
    services.push(svc);
    return svc;
  };

  beforeAll(async () => {
    directUrl = await createTestDatabase();
  });
  afterAll(async () => {
    for (const svc of services) await svc.stop();
    for (const r of relays) await r.close();
  });

  /** Holds every projection batch (each claims its checkpoints first) until `release()`; brief, as it holds a transaction open. */
  const holdReadModels = async () => {
    const locker = new pg.Client({ connectionString: directUrl });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table projection_checkpoints in exclusive mode');
    return {
      release: async () => {
        await locker.query('commit');
        await locker.end();
      },
    };
  };

  /** A read's answer and how long it took. */
  const timed = async (send: () => Promise<Answer>) => {
    const started = performance.now();
    const res = await send();
    return { res, ms: performance.now() - started };
  };

  /** An offer of the service's supplier with 2 keys, then 3 more uploaded while the read models are held. */
  const uploadWhileHeld = async (svc: TestService) => {
    const { api } = await svc.newSupplier();
    const offer = await createUploaded(api, (await svc.newProduct()).id);
    await upload(api, offer.id, textKeys('BEFORE', 2));
    expect((await api.get(`/offers/${offer.id}`)).body.stock.available).toBe(2);
    const held = await holdReadModels();
    // answered from the command's state: the read models have not applied it
    expect((await upload(api, offer.id, textKeys('HELD', 3))).stock_available).toBe(5);
    return { api, offer, held };
  };

  it('without a replica, a read waiting for the read models answers 503 with Retry-After once the primary is lost', async () => {
    const primary = await relay();
    const svc = await start(primary.url);
    const { api, offer, held } = await uploadWhileHeld(svc);
    try {
      primary.cut();
      const { res, ms } = await timed(() => api.get(`/offers/${offer.id}`));
      expectUnavailable(res);
      // READ_WAIT_MS after the loss at the latest, with room for a busy machine: not the
      // read models' 30 s
      expect(ms).toBeLessThan(READ_WAIT_MS + 3_000);
    } finally {
      primary.restore();
      await held.release();
    }
    const after = await eventually('the upload readable', async () => {
      const res = await api.get(`/offers/${offer.id}`);
      return res.status === 200 ? res : undefined;
    });
    expect(after.body.stock.available).toBe(5);
  });

  it('with a replica, the read answers from it with what it has', async () => {
    const primary = await relay();
    const replica = await relay();
    const svc = await start(primary.url, replica.url);
    const { api, offer, held } = await uploadWhileHeld(svc);
    try {
      primary.cut();
      const { res, ms } = await timed(() => api.get(`/offers/${offer.id}`));
      expect(res.status, res.text).toBe(200);
      // the replica's read models, which had not applied the held upload
      expect(res.body.stock.available).toBe(2);
      expect(ms).toBeLessThan(READ_WAIT_MS + 3_000);
    } finally {
      primary.restore();
      await held.release();
    }
    // the primary back, the instance's own write is read again
    const after = await eventually('the upload readable', async () => {
      const res = await api.get(`/offers/${offer.id}`);
      return res.status === 200 && res.body.stock.available === 5 ? res : undefined;
    });
    expect(after.body.stock.available).toBe(5);
  });

  it("frees a write's key once the database is back when the write answered 503 for want of it", async () => {
    const primary = await relay();
    const svc = await start(primary.url);
    const product = await svc.newProduct();
    const { api } = await svc.newSupplier();
    const offer = await createUploaded(api, product.id);
    await upload(api, offer.id, textKeys('KEY', 2));
    await api.post(`/offers/${offer.id}/activate`);
    const order = () =>
      svc.operator.post(
        '/orders',
        { items: [{ product_id: product.id, quantity: 1 }], buyer_country: 'DE' },
        { headers: { 'idempotency-key': 'lost-under-it' } },
      );
    // the order takes its key, then waits on the events' table until the primary is lost
    const locker = new pg.Client({ connectionString: directUrl });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table es_events in exclusive mode');
    let first: Answer;
    try {
      const placing = order();
      await eventually('the order waiting on the lock', async () => {
        const { rows } = await locker.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where relation = 'es_events'::regclass and not granted`,
        );
        return rows[0]!.n > 0 ? true : undefined;
      });
      primary.cut();
      first = await placing;
    } finally {
      await locker.query('commit');
      await locker.end();
    }
    expectUnavailable(first);
    primary.restore();
    // the test clock stands still: a key left to its lease would answer 409 for good
    const retried = await eventually('the key free again', async () => {
      const res = await order();
      expect(res.status === 409 || res.status === 503 || res.status === 201, res.text).toBe(true);
      return res.status === 201 ? res : undefined;
    });
    expect(retried.body.items).toHaveLength(1);
  });
});
