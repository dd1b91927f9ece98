import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { connect } from '../../src/db/connect.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { LEASE_MS, RENEW_MS } from '../../src/http/idempotency.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { createTestDatabase } from '../support/database.js';
import { type Answer, client, request } from '../support/http.js';
import { eur, keys } from '../orders/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { eventually, spawnService, startDatabaseRelay } from './support.js';

/**
 * The client's contract across crashes: checkouts and payments run under load with
 * Idempotency-Keys while the service is killed with SIGKILL (and restarted on the same
 * database), or the database loses every session, or Postgres itself is killed and
 * restarted. Every request is retried with its key. Every key gets its answer (a 409 only
 * while a dead owner's lease runs, never after), no order is placed twice, every order
 * completes, no key is sold twice, and the ledger audit is clean.
 */

const OPERATOR_TOKEN = `svc_op_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');
type Service = Awaited<ReturnType<typeof spawnService>>;
const services: Service[] = [];
const dirs: string[] = [];
const servers: EmbeddedDatabase[] = [];
const STOCK = 300;

const tempDir = async (prefix: string) => {
  const dir = await clusterFolder(prefix);
  dirs.push(dir);
  return dir;
};

/**
 * A market on `current()` with one offer, and clients that retry the same request (same key)
 * until answered. With `hook`, the supplier listens for `order.paid` there.
 */
const marketUnderLoad = async (databaseUrl: () => string, first: Service, hook?: string) => {
  let current = first;
  const operator = () => client(`${current.origin}/operator/v1`, OPERATOR_TOKEN);
  const created = await operator().post('/suppliers', { name: 'Crash Load' });
  expect(created.status, created.text).toBe(201);
  const supplierId: string = created.body.supplier.id;
  const supplier = () => client(current.baseUrl, created.body.token);
  const product = await operator().post('/products', {
    name: 'Crash Load',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'sellable',
  });
  const offer = await supplier().post('/offers', {
    product_id: product.body.id,
    stock_mode: 'uploaded',
    price: eur(1000),
    external_ref: 'CL-1',
  });
  expect(
    (
      await supplier().post(`/offers/${offer.body.id}/inventory`, {
        items: keys('CL', STOCK).map((value) => ({ kind: 'text', value })),
      })
    ).status,
  ).toBe(201);
  expect((await supplier().post(`/offers/${offer.body.id}/activate`)).status).toBe(200);
  if (hook) expect((await supplier().post('/webhooks', { url: hook, events: ['order.paid'] })).status).toBe(201);

  // while the service is down (killed, restarting) a client waits for it, then retries
  let back: Promise<void> = Promise.resolve();
  const stats = { refused: 0, inUse: 0, unavailable: 0, unexpected: [] as string[] };
  const untilAnswered = async (send: () => Promise<Answer>): Promise<Answer> => {
    for (;;) {
      let res: Answer;
      try {
        res = await send();
      } catch {
        stats.refused++;
        await back;
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      if (res.status === 503) {
        stats.unavailable++;
        expect(res.body.code).toBe('service_unavailable');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (res.status === 409 && res.body.code === 'idempotency_key_in_use') {
        stats.inUse++;
        // waits out the dead owner's lease (Retry-After) on the service's test clock
        const wait = Number(res.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(0);
        await operator().post('/clock/advance', { seconds: wait });
        continue;
      }
      return res;
    }
  };

  const body = { items: [{ product_id: product.body.id, quantity: 1 }], buyer_country: 'DE' };
  const answers = new Map<string, { orderId: string; status: string }>();
  let completed = 0;
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const key = `crash-${w}-${i}`;
      const placed = await untilAnswered(() =>
        operator().post('/orders', body, { headers: { 'idempotency-key': key } }),
      );
      if (placed.status !== 201) stats.unexpected.push(`checkout ${placed.status} ${placed.text}`);
      const paid = await untilAnswered(() =>
        operator().post(`/orders/${placed.body.id}/pay`, undefined, { headers: { 'idempotency-key': `pay-${key}` } }),
      );
      if (paid.status !== 200) stats.unexpected.push(`pay ${paid.status} ${paid.text}`);
      answers.set(key, { orderId: placed.body.id, status: paid.body.status });
      completed++;
    }
  };
  const workers = Array.from({ length: 6 }, (_, w) => worker(w));

  return {
    stats,
    /** Resolves once `more` further orders completed. */
    more: (more: number) => {
      const target = completed + more;
      return eventually(
        `${target} orders completed`,
        async () => (completed >= target ? true : undefined),
        40_000,
      ).catch((error) => {
        throw new Error(
          `${error.message}; the service (exit ${current.child.exitCode ?? current.child.signalCode ?? 'none'}) said:\n${current.output().slice(-3000)}`,
        );
      });
    },
    /** Clients wait for `restarted` before retrying. */
    down(restarted: Promise<Service>) {
      back = restarted.then((s) => {
        current = s;
      });
    },
    readyz: () => request(current.origin, 'GET', '/readyz'),
    /** Moves the service's test clock (a dead instance's leases run out on it). */
    advance: (seconds: number) => operator().post('/clock/advance', { seconds }),
    /** The orders the clients completed, once `finish` checked them. */
    orderIds: [] as string[],
    /** Stops the load, then checks the contract and the data. */
    async finish() {
      stop = true;
      await Promise.all(workers);
      expect(stats.unexpected).toEqual([]);

      // every key: its own order, completed; a retry now replays that answer
      const n = answers.size;
      expect(new Set([...answers.values()].map((a) => a.orderId)).size).toBe(n);
      expect([...answers.values()].filter((a) => a.status !== 'completed')).toEqual([]);
      // (an answer that left while the database went away was not recorded: its key is in
      // flight until the lease lapses, then the retry finds the order the first run placed)
      for (const [key, { orderId }] of answers) {
        const again = await untilAnswered(() =>
          operator().post('/orders', body, { headers: { 'idempotency-key': key } }),
        );
        expect([key, again.status, again.body.id]).toEqual([key, 201, orderId]);
      }

      // no order placed twice, no key sold twice, stock and ledger agree with the events
      const db = new pg.Client({ connectionString: databaseUrl() });
      await db.connect();
      try {
        const orderStreams = Number(
          (await db.query(`select count(distinct stream_id) as n from es_events where stream_id like 'order-%'`))
            .rows[0].n,
        );
        expect(orderStreams).toBe(n);
        const delivered = (await db.query(`select data from es_events where type = 'InventoryDelivered'`)).rows.flatMap(
          (r) => r.data.itemIds as string[],
        );
        expect(new Set(delivered).size).toBe(delivered.length);
        expect(delivered).toHaveLength(n);
        // no consumer claims to have applied an event the store does not hold: a checkpoint
        // past the last event would mean committed events were lost in the crash
        const past = await db.query(
          `select c.name from projection_checkpoints c,
             (select transaction_id, position from es_events order by transaction_id desc, position desc limit 1) h
           where (c.commit_position::bigint, c.prepare_position) > (h.transaction_id::text::bigint, h.position)`,
        );
        expect(past.rows).toEqual([]);
      } finally {
        await db.end();
      }
      const stock = await eventually('the read models to catch up', async () => {
        const res = await supplier().get(`/offers/${offer.body.id}`);
        return res.body.stock.delivered === n && res.body.stock.reserved === 0 ? res.body.stock : undefined;
      });
      expect(stock).toMatchObject({ available: STOCK - n, reserved: 0, delivered: n });
      this.orderIds = [...answers.values()].map((a) => a.orderId);
      const conn = connect(databaseUrl(), 2);
      const store = new PostgresEventStore(conn.pool);
      try {
        const report = await eventually('a clean ledger audit', async () => {
          const r = await auditLedger(store, conn.kysely, { supplierId });
          return r.entries === n && r.differences.length === 0 ? r : undefined;
        });
        expect(report).toMatchObject({ entries: n, differences: [] });
      } finally {
        await store.close();
        await conn.close();
      }
    },
  };
};

const start = async (databaseUrl: string, dataDir: string, env?: Record<string, string>) => {
  const s = await spawnService({ databaseUrl, dataDir, operatorToken: OPERATOR_TOKEN, secretKey: SECRET_KEY, env });
  services.push(s);
  return s;
};

const stopService = async (s: Service) => {
  s.child.kill('SIGTERM');
  expect((await s.exited).code).toBe(0);
};

/** SIGKILL to a Postgres server and every process it started: a machine losing its database. */
const killPostgres = (clusterDir: string) => {
  const postmaster = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  process.kill(postmaster, 'SIGKILL');
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone with its parent
    }
  }
};

describe('crashes under load, then retries with the same keys', () => {
  afterAll(async () => {
    services.forEach((s) => s.child.exitCode === null && s.child.signalCode === null && s.child.kill('SIGKILL'));
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }, 240_000);

  it('the service killed (SIGKILL) and restarted on the same database: every key answered, no order twice, the audit clean, every order.paid webhook made once and delivered', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await tempDir('marketplace-faults-');
    // the first payment whose sale entry is posted kills the process (SIGKILL, as a machine
    // dying there) while it holds that payment's Idempotency-Key and the other clients'
    // requests are in flight: a kill at a random moment may fall between two requests
    const receiver = await startReceiver();
    const hooks = { SVC_ALLOW_PRIVATE_TARGETS: '1' };
    const first = await start(databaseUrl, dataDir, { ...hooks, SVC_FAULT_KILL_AT: 'after-sale-credited' });
    const load = await marketUnderLoad(() => databaseUrl, first, receiver.url);

    let down = 0;
    const restarted = (async () => {
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const killedAt = Date.now();
      const next = await start(databaseUrl, dataDir, hooks);
      down = Date.now() - killedAt;
      return next;
    })();
    load.down(restarted);
    const second = await restarted;

    await load.more(6);

    await load.finish();
    expect(load.stats.refused).toBeGreaterThan(0); // the kill caught requests in flight
    // keys the dead process held were taken over after their lease: a key held at the kill
    // was renewed at most RENEW_MS before it, so its lease still runs when a restart this
    // fast answers (a slower machine's restart finds the leases lapsed, and no 409 is due)
    if (down < LEASE_MS - RENEW_MS - 1_000) expect(load.stats.inUse, `restarted in ${down} ms`).toBeGreaterThan(0);
    else console.log(`restart took ${down} ms, past the lease: the keys were free again without a 409`);

    // every paid order's webhook arrives, the ones the dead process had claimed or been
    // handed too once their lease runs out: each made once, sent at least once
    const paidOrders = () => new Set(receiver.received.map((r) => r.body.data.order.id as string));
    await load.advance(31);
    await eventually('every order.paid delivered', async () =>
      load.orderIds.every((id) => paidOrders().has(id)) ? true : undefined,
    );
    expect([...paidOrders()].sort()).toEqual([...load.orderIds].sort());
    // the outcome of an attempt is recorded a moment after it arrived
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const n = load.orderIds.length;
      const deliveries = await eventually('every delivery recorded', async () => {
        const { rows } = await db.query(
          `select count(*)::int as made, count(distinct event_id)::int as events,
             count(*) filter (where status = 'succeeded')::int as succeeded from webhook_deliveries`,
        );
        return rows[0].succeeded === n ? rows[0] : undefined;
      });
      expect(deliveries).toEqual({ made: n, events: n, succeeded: n });
    } finally {
      await db.end();
    }
    await receiver.close();
    await stopService(second);
  }, 240_000);

  it('its database sessions ended, then Postgres killed (SIGKILL) and restarted, under load: the service stays up, not ready meanwhile, and recovers by itself', async () => {
    const serverDir = await tempDir('marketplace-pg-');
    const server = await startEmbeddedPostgres(serverDir);
    servers.push(server); // killed below: its stop then finds it gone, and lets go of it
    let live = server;
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query('create database market');
    await admin.end();
    // the restarted server gets another port: the relay keeps one address for the service
    const relay = await startDatabaseRelay(server.urlFor('market'));
    const service = await start(relay.url, await tempDir('marketplace-faults-'));
    const load = await marketUnderLoad(() => live.urlFor('market'), service);

    // first every session ends (pg_terminate_backend), then the server itself dies
    await load.more(4);
    const admin2 = new pg.Client({ connectionString: server.urlFor('market') });
    await admin2.connect();
    const ended = await admin2.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await admin2.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    await load.more(4);
    killPostgres(path.join(serverDir, 'pg'));
    const notReady = await eventually('/readyz 503', async () => {
      const res = await load.readyz();
      return res.status === 503 ? res : undefined;
    });
    expect(notReady.body).toEqual({ status: 'database_unreachable' });

    live = await startEmbeddedPostgres(serverDir); // crash recovery on the same data
    servers.push(live);
    relay.retarget(live.urlFor('market'));
    await eventually(
      '/readyz 200',
      async () => ((await load.readyz()).status === 200 ? true : undefined),
      40_000,
    ).catch((error) => {
      throw new Error(
        `${error.message}; the service (exit ${service.child.exitCode ?? service.child.signalCode ?? 'none'}) said:\n${service.output().slice(-3000)}`,
      );
    });
    await load.more(6);

    await load.finish();
    expect(load.stats.unavailable).toBeGreaterThan(0); // requests caught in the outage were told to retry
    expect(service.child.exitCode).toBeNull();
    await stopService(service);
    await relay.close();
  }, 240_000);
});
