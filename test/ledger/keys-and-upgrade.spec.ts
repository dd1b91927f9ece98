import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerVerify } from '../../src/cli/ledger.js';
import type { Config } from '../../src/config.js';
import { ledgerSigningKey, newLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import { linkHash } from '../../src/domain/ledger-chain.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { client, request } from '../support/http.js';
import { olderRelease } from '../support/older-release.js';
import { buy, keys, uploadedOffer, withDb } from '../orders/fixtures.js';

const verify = async (config: Config, args: string[]) => {
  const out: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
  const code = await ledgerVerify(config, args);
  vi.restoreAllMocks();
  return { code, out };
};

const balanceOf = async (svc: TestService, token: string, asOf?: string) => {
  const answer = await client(svc.baseUrl, token).get(`/balance${asOf ? `?as_of=${asOf}` : ''}`);
  expect(answer.status, answer.text).toBe(200);
  return [answer.body.pending.amount, answer.body.available.amount];
};

const sell = async (svc: TestService, supplier: { token: string }, name: string) => {
  const product = await svc.newProduct({ name });
  const seller = { id: '', token: supplier.token, api: client(svc.baseUrl, supplier.token) };
  await uploadedOffer(seller, product.id, { price: 5000, values: keys(name.slice(0, 4), 1) });
  await buy(svc, [{ product_id: product.id, quantity: 1 }]);
  await svc.advance(700);
};

const stored = (svc: TestService, supplierId: string) =>
  withDb(
    svc,
    async (db) =>
      (
        await db.query(
          `select event_id, stream_revision::int, type, data from es_events where stream_id = $1 order by stream_revision`,
          [`balance-${supplierId}`],
        )
      ).rows,
  );

/**
 * Entries an older release wrote unsigned are signed once, at the upgrade, where they stand
 * (their place, the head before them): they keep counting, and nothing written later in
 * their shape does. Signing keys rotate: a retired key's public half keeps what it signed
 * valid and stays published.
 */
describe('entries from before signing, and signing keys that rotate', () => {
  afterEach(() => vi.restoreAllMocks());

  describe('the upgrade of a ledger an older release wrote', () => {
    let databaseUrl: string;
    let svc: TestService;
    let config: Config;
    let older: { supplierId: string; token: string };
    let tampered: { supplierId: string; token: string };
    const secretKey = '5a'.repeat(32);

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      const release = await olderRelease(databaseUrl);
      try {
        const a = await release.supplier('Older Ledger', 1);
        await release.ledger(a.supplierId, { sales: 3, gross: 5000, unlinked: 2 });
        older = { supplierId: a.supplierId, token: a.tokens[0]!.token };
        // a ledger whose fourth entry was changed before the upgrade: its link no longer holds
        const b = await release.supplier('Tampered Before', 1);
        const written = await release.ledger(b.supplierId, { sales: 3, gross: 5000, unlinked: 0 });
        tampered = { supplierId: b.supplierId, token: b.tokens[0]!.token };
        expect(written).toHaveLength(6);
      } finally {
        await release.close();
      }
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      await db.query(
        `update es_events set data = jsonb_set(data, '{net}', to_jsonb((data->>'net')::int + 100)) where stream_id = $1 and stream_revision = 3`,
        [`balance-${tampered.supplierId}`],
      );
      await db.end();
      svc = await startTestService({ databaseUrl, secretKey });
      await svc.drain(); // the read models caught up with what the older release wrote
      config = { ...svc.services.config, databaseUrl };
    });
    afterAll(() => svc.stop());

    it('signs the older entries once, where they stand: they count as before, and the ledger verifies', async () => {
      expect(await balanceOf(svc, older.token)).toEqual([0, 13725]);
      expect(await balanceOf(svc, older.token, '2099-01-01T00:00:00Z')).toEqual([0, 13725]);
      const adopted = await svc.services.store.readStream(`ledger-adoption-${older.supplierId}`);
      expect(adopted.map((e) => [e.type, (e.data as any).from, (e.data as any).signatures.length])).toEqual([
        ['LedgerEntriesAdopted', 0, 6],
      ]);
      expect((adopted[0]!.data as any).keyId).toBe(svc.services.ledgerKey.keyId);
      const { code, out } = await verify(config, ['--supplier', older.supplierId]);
      expect([code, out.at(-1)]).toEqual([
        0,
        'OK: 6 entries of 1 supplier(s) verified (6 of them written before entries were signed, signed at the upgrade), 0 refused',
      ]);
      const upgrade = await svc.services.db.selectFrom('upgrades').select('summary').executeTakeFirstOrThrow();
      expect(upgrade.summary).toMatchObject({ tokens_keyed: 2, ledgers_signed: 2, entries_signed: 9 });
      // a new entry follows on, signed
      await sell(svc, older, 'After Upgrade');
      expect(await balanceOf(svc, older.token)).toEqual([0, 18300]);
      const rows = await stored(svc, older.supplierId);
      expect(rows.map((r: any) => [r.data.chain?.seq ?? null, r.data.chain?.signature === undefined])).toEqual([
        [null, true],
        [null, true],
        [2, true],
        [3, true],
        [4, true],
        [5, true],
        [6, false],
        [7, false],
      ]);
      expect((await verify(config, ['--supplier', older.supplierId])).code).toBe(0);
      expect((await client(svc.baseUrl, older.token).get('/balance/proof')).status).toBe(200);
    });

    it('signs nothing past an entry whose older link no longer held, and says so', async () => {
      expect(await balanceOf(svc, tampered.token, '2099-01-01T00:00:00Z')).toEqual([4575, 4575]);
      expect(
        svc.logs.filter(
          (l) =>
            l.msg ===
            'the upgrade signed no entry from this one on: its stored link does not match the chain the older release wrote',
        ),
      ).toEqual([expect.objectContaining({ supplierId: tampered.supplierId, revision: 3 })]);
      const { code, out } = await verify(config, ['--supplier', tampered.supplierId]);
      expect(code).toBe(1);
      expect(out[0]).toMatch(
        new RegExp(
          `^REFUSED supplier ${tampered.supplierId}: entry settlement-${tampered.supplierId}-oi-1 \\(event \\w+, revision 3\\) carries no signature and was not signed when the ledger was upgraded`,
        ),
      );
      expect(out.at(-1)).toBe(
        'FAILED: 3 entries of 1 supplier(s) verified (3 of them written before entries were signed, signed at the upgrade), 3 refused',
      );
    });

    it('does it once: an entry written later in the older shape (with SQL) is refused, also after another start', async () => {
      const rows = await stored(svc, older.supplierId);
      const last = rows.at(-1)!;
      const content = { ...last.data, entryId: 'settlement-late', chain: undefined };
      delete content.chain;
      const hash = linkHash(last.data.chain.hash, { type: last.type, data: content });
      const id = newId();
      await withDb(svc, (db) =>
        db.query(
          `insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at) values ($1, $2, $3, $4, $5, '{}', now())`,
          [
            `balance-${older.supplierId}`,
            rows.length,
            id,
            last.type,
            { ...content, chain: { seq: last.data.chain.seq + 1, prev: last.data.chain.hash, hash } },
          ],
        ),
      );
      await svc.stop();
      svc = await startTestService({ databaseUrl, secretKey });
      await svc.drain();
      expect(await balanceOf(svc, older.token)).toEqual([0, 18300]);
      const { code, out } = await verify(config, ['--supplier', older.supplierId]);
      expect(code).toBe(1);
      expect(out[0]).toBe(
        `REFUSED supplier ${older.supplierId}: entry settlement-late (event ${id}, revision ${rows.length}) carries no signature and was not signed when the ledger was upgraded: it was put in from elsewhere`,
      );
      expect(await svc.services.store.readStream(`ledger-adoption-${older.supplierId}`)).toHaveLength(1);
    });
  });

  describe('a rotation of the signing key', () => {
    let databaseUrl: string;
    let dir: string;
    const first = newLedgerSigningKey();
    const second = newLedgerSigningKey();
    const firstKey = ledgerSigningKey(first);
    const secondKey = ledgerSigningKey(second);
    const secretKey = '6b'.repeat(32);

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      dir = await mkdtemp(path.join(os.tmpdir(), 'rotation-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('keeps what the retired key signed valid and published, signs on with the new one; an unlisted retired key is named', async () => {
      const start = (extraConfig: Partial<Config>) => startTestService({ databaseUrl, secretKey, extraConfig });
      let svc = await start({ ledgerSigningKey: first });
      const supplier = await svc.newSupplier('Rotating');
      await sell(svc, supplier, 'Before Rotation');
      await svc.stop();

      svc = await start({ ledgerSigningKey: second, ledgerRetiredKeys: [firstKey.publicKey] });
      try {
        const published = (await request(svc.origin, 'GET', '/.well-known/svc-ledger-signing-key')).body;
        expect(published.keys.map((k: any) => [k.key_id, k.public_key, k.status])).toEqual([
          [secondKey.keyId, secondKey.publicKey, 'current'],
          [firstKey.keyId, firstKey.publicKey, 'retired'],
        ]);
        expect(published.key_id).toBe(secondKey.keyId);
        await sell(svc, supplier, 'After Rotation');
        expect(await balanceOf(svc, supplier.token, '2099-01-01T00:00:00Z')).toEqual([0, 9150]);
        const rows = await stored(svc, supplier.id);
        expect(rows.map((r: any) => r.data.chain.keyId)).toEqual([
          firstKey.keyId,
          firstKey.keyId,
          secondKey.keyId,
          secondKey.keyId,
        ]);
        // checked from the service's address: both keys are there
        const auditor = {
          ...svc.services.config,
          databaseUrl,
          ledgerSigningKey: undefined,
          ledgerRetiredKeys: [],
          dataDir: dir,
        };
        expect((await verify(auditor, ['--public-key', svc.origin])).code).toBe(0);
        // the retired key left out of the keys given: what it signed is refused, naming the settings
        const onlyNew = path.join(dir, 'only-new.pem');
        await writeFile(onlyNew, secondKey.publicKeyPem);
        const { code, out } = await verify(auditor, ['--public-key', onlyNew, '--supplier', supplier.id]);
        expect(code).toBe(1);
        expect(out[0]).toBe(
          `REFUSED supplier ${supplier.id}: entry ${rows[0].data.entryId} (event ${rows[0].event_id}, revision 0) is signed with key ${firstKey.keyId}, which is not one of the ledger's keys (SVC_LEDGER_SIGNING_KEY, SVC_LEDGER_RETIRED_KEYS): it was not written by this service`,
        );
      } finally {
        await svc.stop();
      }
    });
  });
});
