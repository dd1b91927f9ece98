import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * DATABASE_READ_URL routes the GET routes' reads to the replica: here the replica is the same
 * database reached through a relay that counts its connections and can be cut, so a test
 * sees which reads took it and that reads go on when it is gone. (A real replica, its replay
 * and a failover are test/ha's.)
 */
const countingRelay = async (databaseUrl: string) => {
  const target = new URL(databaseUrl);
  let connections = 0;
  let down = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    if (down) return void inbound.destroy();
    connections++;
    const outbound = net.connect(Number(target.port), target.hostname);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        inbound.destroy();
        outbound.destroy();
        sockets.delete(s);
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    connections: () => connections,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The instance's /metrics lines of one family. */
const family = async (svc: TestService, name: string) => {
  const res = await fetch(`${svc.origin}/metrics`, { headers: { authorization: `Bearer ${svc.operatorToken}` } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
};

describe('reads from a replica (DATABASE_READ_URL)', () => {
  let svc: TestService;
  let relay: Awaited<ReturnType<typeof countingRelay>>;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    relay = await countingRelay(databaseUrl);
    svc = await startTestService({ databaseUrl, readDatabaseUrl: relay.url });
  });

  afterAll(async () => {
    await svc?.stop();
    await relay?.close();
  });

  it('sends a GET to the replica, answers writes with their position, and reads the primary when the replica is gone', async () => {
    const { api } = await svc.newSupplier();
    const product = await svc.newProduct();
    const created = await api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 1500, currency: 'EUR' },
      external_ref: 'R-1',
    });
    expect(created.status).toBe(201);
    // the write's answer carries the position a read after it waits for
    expect(created.headers.get('x-svc-commit-position')).toMatch(/^\d+\/\d+$/);
    const before = relay.connections();
    const read = await api.get(`/offers/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.price).toEqual({ amount: 1500, currency: 'EUR' });
    // the read (its token look-up and the offer) went through the replica's connection
    expect(relay.connections()).toBeGreaterThan(before);
    // the replica is the primary itself here (not in recovery): nothing to replay, no lag
    expect(await family(svc, 'svc_db_replica_lag_seconds')).toEqual(['svc_db_replica_lag_seconds{pool="replica"} 0']);
    expect((await family(svc, 'svc_db_pool_connections')).filter((l) => l.includes('pool="replica"'))).toHaveLength(2);
    relay.cut();
    // a replica that does not answer shows no lag at all
    expect(await family(svc, 'svc_db_replica_lag_seconds')).toEqual([]);
    const without = await api.get(`/offers/${created.body.id}`);
    expect(without.status).toBe(200);
    expect(without.body.external_ref).toBe('R-1');
  });

  it('says nothing of positions without a replica', async () => {
    const plain = await startTestService();
    try {
      const { api } = await plain.newSupplier();
      const product = await plain.newProduct();
      const created = await api.post('/offers', {
        product_id: product.id,
        stock_mode: 'uploaded',
        price: { amount: 1500, currency: 'EUR' },
        external_ref: 'R-2',
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-svc-commit-position')).toBe(null);
      expect(await family(plain, 'svc_db_replica_lag_seconds')).toEqual([]);
    } finally {
      await plain.stop();
    }
  });
});
