import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprinter } from '../../src/crypto/fingerprint.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { createTestDatabase } from '../support/database.js';
import { client } from '../support/http.js';
import { eventually, spawnService } from './support.js';

/**
 * A 100,000-key import killed with SIGKILL while it runs, and the service started again on
 * the same database: the import goes on from where it stopped and the offer ends up with
 * exactly the file's valid keys, each once (compared by their fingerprints under the
 * service's key, computed here from the file).
 */

const OPERATOR_TOKEN = `svc_op_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');
const KEYS = 100_000;

const children: Awaited<ReturnType<typeof spawnService>>[] = [];
const dirs: string[] = [];

describe('An import killed mid-way', () => {
  afterAll(async () => {
    for (const s of children) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('goes on after a restart: every valid key of the file stored once, none lost', { timeout: 900_000 }, async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await clusterFolder('import-crash-');
    dirs.push(dataDir);
    const start = async () => {
      const s = await spawnService({ databaseUrl, dataDir, operatorToken: OPERATOR_TOKEN, secretKey: SECRET_KEY });
      children.push(s);
      return s;
    };
    const first = await start();
    const operator = client(`${first.origin}/operator/v1`, OPERATOR_TOKEN);
    const supplier = await operator.post('/suppliers', { name: 'Import Crash' });
    const product = await operator.post('/products', {
      name: 'Import Crash',
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
    });
    const api = client(first.baseUrl, supplier.body.token);
    const offer = await api.post('/offers', {
      product_id: product.body.id,
      stock_mode: 'uploaded',
      price: { amount: 1000, currency: 'EUR' },
      external_ref: 'IC-1',
    });
    const keys = Array.from(
      { length: KEYS },
      (_, i) => `IMPORT-${String(i).padStart(6, '0')}-${randomBytes(4).toString('hex')}`,
    );
    // a header, a blank line and a repeated key the file's reading refuses
    const file = ['key', ...keys.slice(0, 50_000), '', keys[0], ...keys.slice(50_000)].join('\n');
    const started = await api.post(`/offers/${offer.body.id}/inventory/imports`, {
      file_name: 'big.txt',
      content: file,
    });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ keys: KEYS, refused: 3 });
    const job = `/offers/${offer.body.id}/inventory/imports/${started.body.id}`;

    // killed once some chunks are recorded and before the last
    await eventually(
      'a few chunks recorded',
      async () => {
        const res = await api.get(job);
        return res.body.done >= 3000 ? true : undefined;
      },
      120_000,
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const countAtKill = (
        await db.query(`select count(*)::int as n from es_events where stream_id = $1`, [
          `inventory-import-${started.body.id}`,
        ])
      ).rows[0].n;
      expect(countAtKill).toBeLessThan(KEYS / 1000 + 2);

      const second = await start();
      const api2 = client(second.baseUrl, supplier.body.token);
      // the dead run's claim of the import's timer runs out (30 s of the service's clock)
      await client(`${second.origin}/operator/v1`, OPERATOR_TOKEN).post('/clock/advance', { seconds: 60 });
      const done = await eventually(
        'the import to complete',
        async () => {
          const res = await api2.get(`/offers/${offer.body.id}/inventory/imports/${started.body.id}`);
          return res.body.status === 'completed' ? res.body : undefined;
        },
        300_000,
      );
      expect(done).toMatchObject({ keys: KEYS, done: KEYS, added: KEYS, refused: 3 });

      const uploads = (
        await db.query(`select data from es_events where stream_id = $1 and type = 'InventoryUploaded'`, [
          `inventory-${offer.body.id}`,
        ])
      ).rows.map((r) => r.data as { itemIds: string[]; fingerprints: string[] });
      const itemIds = uploads.flatMap((u) => u.itemIds);
      const fingerprints = uploads.flatMap((u) => u.fingerprints);
      expect(new Set(itemIds).size).toBe(KEYS);
      expect(itemIds.length).toBe(KEYS);
      const fingerprintOf = fingerprinter(SECRET_KEY);
      expect(new Set(fingerprints)).toEqual(new Set(keys.map((k) => fingerprintOf('text', k))));
      expect((await api2.get(`/offers/${offer.body.id}`)).body.stock.available).toBe(KEYS);
    } finally {
      await db.end();
    }
  });
});
