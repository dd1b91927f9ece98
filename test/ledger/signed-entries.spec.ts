import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerVerify } from '../../src/cli/ledger.js';
import { projectionsRebuild } from '../../src/cli/projections.js';
import type { Config } from '../../src/config.js';
import { linkHash } from '../../src/domain/ledger-chain.js';
import { newId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { buy, eur, keys, type Supplier, troubles, uploadedOffer, withDb } from '../orders/fixtures.js';

interface Stored {
  event_id: string;
  stream_revision: number;
  type: string;
  data: any;
}

/**
 * Every ledger entry is signed where it stands (Ed25519 over its content's hash, its place and
 * the head before it). Someone who can write to the database, and does what the chain does
 * (links computed, recomputed after an edit or a deletion), makes entries the ledger refuses:
 * `ledger verify` names them with the public key alone, no balance counts them, and no payout
 * leaves against them.
 */
describe('signed ledger entries against an insider', () => {
  let svc: TestService;
  let dir: string;
  let publicKeyFile: string;
  /** The settings of an auditor: the database, no signing key, a data folder of its own. */
  let auditor: Config;

  const run = async (args: string[], config = auditor) => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
    const code = await ledgerVerify(config, args);
    vi.restoreAllMocks();
    return { code, out };
  };

  const stored = (supplier: Supplier) =>
    withDb(
      svc,
      async (db) =>
        (
          await db.query<Stored>(
            `select event_id, stream_revision::int, type, data from es_events where stream_id = $1 order by stream_revision`,
            [`balance-${supplier.id}`],
          )
        ).rows,
    );

  /** Two sales of 50.00, settled: 91.50 available. */
  const sellingSupplier = async (name: string, sales = 2) => {
    const supplier = await svc.newSupplier(name);
    // a product of its own: every sale of it is this supplier's
    const productId: string = (await svc.newProduct({ name })).id;
    await uploadedOffer(supplier, productId, { price: 5000, values: keys(name.slice(0, 4), sales + 2) });
    const sell = async () => {
      await buy(svc, [{ product_id: productId, quantity: 1 }]);
      await svc.advance(700);
    };
    for (let i = 0; i < sales; i++) await buy(svc, [{ product_id: productId, quantity: 1 }]);
    await svc.advance(700);
    return Object.assign(supplier, { sell });
  };

  const balance = async (supplier: Supplier, asOf?: string) => {
    const answer = await supplier.api.get(`/balance${asOf ? `?as_of=${asOf}` : ''}`);
    expect(answer.status, answer.text).toBe(200);
    return [answer.body.pending.amount, answer.body.available.amount];
  };

  /** Inserts `events` after the stream's last one with SQL, each linked as the chain links them. */
  const insertLinked = async (supplier: Supplier, events: { type: string; data: any }[]) => {
    const before = await stored(supplier);
    let prev = before.at(-1)!.data.chain.hash as string;
    let seq = before.at(-1)!.data.chain.seq + 1;
    const ids: string[] = [];
    for (const [i, e] of events.entries()) {
      const hash = linkHash(prev, e);
      const data = { ...e.data, chain: { seq, prev, hash } };
      const id = newId();
      ids.push(id);
      await withDb(svc, (db) =>
        db.query(
          `insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at) values ($1, $2, $3, $4, $5, '{}', now())`,
          [`balance-${supplier.id}`, before.length + i, id, e.type, data],
        ),
      );
      prev = hash;
      seq++;
    }
    return ids;
  };

  /** Rewrites the stored events from `from` on as `change` says, each link recomputed as the chain would. */
  const relink = async (rows: Stored[], from: number, change: (data: any, i: number) => any) => {
    let prev = rows[from]!.data.chain.prev as string;
    for (let i = from; i < rows.length; i++) {
      const row = rows[i]!;
      const { chain, ...content } = row.data;
      const data = change(content, i);
      const hash = linkHash(prev, { type: row.type, data });
      await withDb(svc, (db) =>
        db.query(`update es_events set data = $2, stream_revision = $3 where event_id = $1`, [
          row.event_id,
          { ...data, chain: { ...chain, seq: i, prev, hash } },
          i,
        ]),
      );
      prev = hash;
    }
  };

  const payout = (supplier: Supplier, amount: number) => supplier.api.post('/payouts', { amount: eur(amount) });

  beforeAll(async () => {
    svc = await startTestService();
    dir = await mkdtemp(path.join(os.tmpdir(), 'signed-entries-'));
    const published = await request(svc.origin, 'GET', '/.well-known/svc-ledger-signing-key');
    publicKeyFile = path.join(dir, 'svc-ledger-signing-key.json');
    await writeFile(publicKeyFile, published.text);
    auditor = {
      ...svc.services.config,
      databaseUrl: svc.databaseUrl,
      ledgerSigningKey: undefined,
      dataDir: path.join(dir, 'auditor'),
    };
  });
  afterAll(async () => {
    await svc.stop();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('signs every entry as it is written: the link carries the key id and a signature the published key verifies', async () => {
    const supplier = await sellingSupplier('Plain Seller');
    const published = (await request(svc.origin, 'GET', '/.well-known/svc-ledger-signing-key')).body;
    expect(published.keys).toEqual([
      {
        key_id: published.key_id,
        public_key: published.public_key,
        public_key_pem: published.public_key_pem,
        status: 'current',
      },
    ]);
    expect(published.entry_format).toBe('svc-ledger-entry/1');
    const rows = await stored(supplier);
    expect(rows.map((r) => [r.type, r.data.chain.seq, r.data.chain.keyId])).toEqual([
      ['SaleCredited', 0, published.key_id],
      ['SaleCredited', 1, published.key_id],
      ['SaleSettled', 2, published.key_id],
      ['SaleSettled', 3, published.key_id],
    ]);
    for (const r of rows) expect(r.data.chain.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(await run(['--public-key', publicKeyFile, '--supplier', supplier.id])).toEqual({
      code: 0,
      out: [
        `HEAD supplier ${supplier.id}: ${rows.at(-1)!.data.chain.hash} after 4 entries`,
        'OK: 4 entries of 1 supplier(s) verified, 0 refused',
      ],
    });
  });

  it('an appended credit and settlement of 5,000.00, linked as the chain links: named by ledger verify, in no balance, paid out never', async () => {
    const supplier = await sellingSupplier('Appended To');
    expect(await balance(supplier)).toEqual([0, 9150]);
    const rows = await stored(supplier);
    const sale = rows[0]!.data;
    const forged = [
      {
        type: 'SaleCredited',
        data: {
          ...sale,
          chain: undefined,
          orderItemId: 'oi-forged',
          entryId: 'sale-oi-forged',
          gross: 546448,
          commission: 46448,
          net: 500000,
        },
      },
      {
        type: 'SaleSettled',
        data: {
          supplierId: supplier.id,
          orderId: sale.orderId,
          orderItemId: 'oi-forged',
          entryId: 'settlement-oi-forged',
          net: 500000,
          postings: [
            { account: 'supplier_pending', amount: -500000 },
            { account: 'supplier_available', amount: 500000 },
          ],
          at: sale.at,
        },
      },
    ].map((e) => ({ type: e.type, data: JSON.parse(JSON.stringify(e.data)) }));
    forged[0]!.data.postings = [
      { account: 'buyer_funds', amount: -546448 },
      { account: 'supplier_pending', amount: 500000 },
      { account: 'platform_commission', amount: 46448 },
    ];
    const ids = await insertLinked(supplier, forged);
    await svc.drain();

    // no balance counts them: the read models, the ledger replayed, the entries listed
    expect(await balance(supplier)).toEqual([0, 9150]);
    expect(await balance(supplier, '2099-01-01T00:00:00Z')).toEqual([0, 9150]);
    const listed = (await supplier.api.get('/balance/entries?limit=100')).body.data.map((e: any) => e.id);
    expect(listed).toHaveLength(6);
    expect(listed.some((id: string) => id.includes('forged'))).toBe(false);
    // no payout leaves: not the forged money, and not the genuine money either while the ledger holds a refused entry
    for (const amount of [500000, 2000]) {
      const refused = await payout(supplier, amount);
      expect([refused.status, refused.body.code, refused.body.entry_id]).toEqual([
        409,
        'ledger_chain_broken',
        'sale-oi-forged',
      ]);
    }
    expect((await supplier.api.get('/balance/proof')).status).toBe(409);

    // named with the public key alone, each with why
    const reason = 'carries no signature and was not signed when the ledger was upgraded: it was put in from elsewhere';
    expect(await run(['--public-key', publicKeyFile, '--supplier', supplier.id])).toEqual({
      code: 1,
      out: [
        `REFUSED supplier ${supplier.id}: entry sale-oi-forged (event ${ids[0]}, revision 4) ${reason}`,
        `REFUSED supplier ${supplier.id}: entry settlement-oi-forged (event ${ids[1]}, revision 5) ${reason}`,
        `HEAD supplier ${supplier.id}: ${rows.at(-1)!.data.chain.hash} after 4 entries`,
        'FAILED: 4 entries of 1 supplier(s) verified, 2 refused',
      ],
    });
    // the auditor's folder got no key
    expect(await readdir(dir)).toEqual(['svc-ledger-signing-key.json']);

    // reported as they were read: a log line each, and the metric
    const logged = svc.logs.filter((l) => String(l.msg).startsWith('ledger entry refused'));
    expect(logged.map((l) => [l.level, l.entryId, l.eventId])).toEqual([
      [50, 'sale-oi-forged', ids[0]],
      [50, 'settlement-oi-forged', ids[1]],
    ]);
    const metrics = await request(svc.origin, 'GET', '/metrics', { token: svc.operatorToken });
    expect(metrics.text).toContain('svc_ledger_entries_refused_total 2');
  });

  it("a forged signature is refused too, and a key that is not the ledger's", async () => {
    const supplier = await sellingSupplier('Signed Over', 1);
    const rows = await stored(supplier);
    const last = rows.at(-1)!.data;
    const [fakeSignature, strangeKey] = await insertLinked(supplier, [
      { type: 'SaleSettled', data: { ...last, chain: undefined, entryId: 'settlement-again', net: 100000 } },
    ]).then(async (first) => [
      first[0],
      ...(await insertLinked(supplier, [
        { type: 'SaleSettled', data: { ...last, chain: undefined, entryId: 'settlement-thrice', net: 100000 } },
      ])),
    ]);
    await withDb(svc, async (db) => {
      await db.query(
        `update es_events set data = jsonb_set(jsonb_set(data, '{chain,keyId}', to_jsonb($2::text)), '{chain,signature}', to_jsonb($3::text)) where event_id = $1`,
        [fakeSignature, last.chain.keyId, 'ab'.repeat(64)],
      );
      await db.query(
        `update es_events set data = jsonb_set(jsonb_set(data, '{chain,keyId}', to_jsonb($2::text)), '{chain,signature}', to_jsonb($3::text)) where event_id = $1`,
        [strangeKey, '0123456789abcdef', 'ab'.repeat(64)],
      );
    });
    const { code, out } = await run(['--public-key', publicKeyFile, '--supplier', supplier.id]);
    expect(code).toBe(1);
    expect(out.slice(0, 2)).toEqual([
      `REFUSED supplier ${supplier.id}: entry settlement-again (event ${fakeSignature}, revision 2) its signature does not verify under key ${last.chain.keyId}: it was written or rewritten without the ledger's key`,
      `REFUSED supplier ${supplier.id}: entry settlement-thrice (event ${strangeKey}, revision 3) is signed with key 0123456789abcdef, which is not one of the ledger's keys (SVC_LEDGER_SIGNING_KEY, SVC_LEDGER_RETIRED_KEYS): it was not written by this service`,
    ]);
    expect(await balance(supplier, '2099-01-01T00:00:00Z')).toEqual([0, 4575]);
  });

  it('an entry edited with its links recomputed after it: named, and once the read models are rebuilt no balance counts it or anything after', async () => {
    const supplier = await sellingSupplier('Edited In');
    expect((await payout(supplier, 2000)).status).toBe(201);
    await supplier.sell();
    expect(await balance(supplier)).toEqual([0, 11725]);
    const rows = await stored(supplier);
    const edited = rows.findIndex((r) => r.type === 'PayoutCreated');
    // the payout made 20.00 smaller: 19.80 more to pay out, as the insider hopes
    await relink(rows, edited, (data, i) =>
      i === edited
        ? {
            ...data,
            amount: 20,
            postings: data.postings.map((p: any) => ({ ...p, amount: Math.sign(p.amount) * 20 })),
          }
        : data,
    );
    const { code, out } = await run(['--public-key', publicKeyFile, '--supplier', supplier.id]);
    expect(code).toBe(1);
    expect(out[0]).toBe(
      `REFUSED supplier ${supplier.id}: entry ${rows[edited]!.data.entryId} (event ${rows[edited]!.event_id}, revision ${edited}) its signature does not verify under key ${rows[edited]!.data.chain.keyId}: it was written or rewritten without the ledger's key`,
    );
    expect(out.at(-1)).toBe(`FAILED: ${edited} entries of 1 supplier(s) verified, ${rows.length - edited} refused`);
    // the ledger replayed counts what it accepts: the two sales before the payout
    expect(await balance(supplier, '2099-01-01T00:00:00Z')).toEqual([0, 9150]);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const rebuilt = await projectionsRebuild({ ...svc.services.config, databaseUrl: svc.databaseUrl }, 'ledger');
    vi.restoreAllMocks();
    expect(rebuilt).toBe(0);
    expect(await balance(supplier)).toEqual([0, 9150]);
    const refused = await payout(supplier, 9150);
    expect([refused.status, refused.body.code, refused.body.entry_id]).toEqual([
      409,
      'ledger_chain_broken',
      rows[edited]!.data.entryId,
    ]);
  });

  it('an entry deleted with the revisions and links after it recomputed: every later entry is refused, and the money it held back stays put', async () => {
    const supplier = await sellingSupplier('Deleted From');
    expect((await payout(supplier, 2000)).status).toBe(201);
    await supplier.sell();
    const rows = await stored(supplier);
    const gone = rows.findIndex((r) => r.type === 'PayoutCreated');
    await withDb(svc, (db) => db.query(`delete from es_events where event_id = $1`, [rows[gone]!.event_id]));
    const kept = rows.filter((_, i) => i !== gone);
    await relink(kept, gone, (data) => data);
    const { code, out } = await run(['--public-key', publicKeyFile, '--supplier', supplier.id]);
    expect(code).toBe(1);
    expect(out[0]).toBe(
      `REFUSED supplier ${supplier.id}: entry ${kept[gone]!.data.entryId} (event ${kept[gone]!.event_id}, revision ${gone}) its signature does not verify under key ${kept[gone]!.data.chain.keyId}: it was written or rewritten without the ledger's key`,
    );
    // without the payout the insider would have 117.25 + 20.00 to pay out; the ledger counts 91.50
    expect(await balance(supplier, '2099-01-01T00:00:00Z')).toEqual([0, 9150]);
    const refused = await payout(supplier, 13725);
    expect([refused.status, refused.body.code, refused.body.entry_id]).toEqual([
      409,
      'ledger_chain_broken',
      kept[gone]!.data.entryId,
    ]);
  });

  it('checks with the public key only: without one it says which setting names it, and makes none', async () => {
    expect(await run([])).toEqual({
      code: 2,
      out: [
        "ERR no public key of the ledger to check it with: give --public-key FILE|URL or set SVC_LEDGER_PUBLIC_KEY (a copy of GET /.well-known/svc-ledger-signing-key, a PEM or the key in hex, or the service's URL)",
      ],
    });
    // against a head a supplier kept, the same: the check makes no key to compare it with
    const kept = path.join(dir, 'kept-head.json');
    await writeFile(kept, (await (await svc.newSupplier('Kept Head')).api.get('/balance/proof')).text);
    expect(await run(['--checkpoint', kept])).toEqual({
      code: 2,
      out: [
        "ERR no public key of the ledger to check it with: give --public-key FILE|URL or set SVC_LEDGER_PUBLIC_KEY (a copy of GET /.well-known/svc-ledger-signing-key, a PEM or the key in hex, or the service's URL)",
      ],
    });
    const missing = await run(['--public-key', path.join(dir, 'nowhere.json')]);
    expect(missing.code).toBe(2);
    expect(missing.out[0]).toMatch(/^ERR cannot read the ledger's public key from .*nowhere\.json: ENOENT/);
    // the setting, and the service's address, serve as well as the flag
    const byUrl = await run([], { ...auditor, ledgerPublicKey: svc.origin });
    expect(byUrl.out.at(-1)).toMatch(/^FAILED: \d+ entries of \d+ supplier\(s\) verified, \d+ refused$/);
    expect((await readdir(dir)).sort()).toEqual(['kept-head.json', 'svc-ledger-signing-key.json']);
    // and with the public key, the kept head checks
    expect((await run(['--checkpoint', kept, '--public-key', publicKeyFile])).code).toBe(0);
  });

  it('answered no 5xx and logged no error but the refusals', () => {
    expect(troubles(svc).filter((t) => !t.startsWith('ledger entry refused'))).toEqual([]);
  });
});
