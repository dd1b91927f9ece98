import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { replayLedger } from '../../src/cli/ledger-audit.js';
import { ledgerBalance, ledgerVerify } from '../../src/cli/ledger.js';
import { verifyLedger } from '../../src/cli/ledger-verify.js';
import type { Config } from '../../src/config.js';
import { startTestService, type TestService } from '../support/harness.js';
import { allPages, buy, eur, keys, type Supplier, uploadedOffer, withDb, troubles } from '../orders/fixtures.js';

/** A small deterministic generator, so the generated history is the same on every run. */
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

interface Moment {
  at: string;
  bySupplier: Map<string, { balance: any; entries: any[]; proof: any }>;
}

/**
 * Balances at any moment, and the tamper-evident chain: a generated history of sales,
 * settlements, refunds and payouts is snapshotted at several moments; afterwards every
 * as_of answer (HTTP and CLI) must equal the snapshot and the auditor's replay at that
 * moment, and the chain must verify until one stored event is changed, moved or deleted.
 */
describe('the ledger at any moment, and its hash chain', () => {
  let svc: TestService;
  let config: Config;
  const suppliers: Supplier[] = [];
  const moments: Moment[] = [];

  const run = async (command: (config: Config, args: string[]) => Promise<number>, args: string[]) => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
    const code = await command(config, args);
    vi.restoreAllMocks();
    return { code, out };
  };

  beforeAll(async () => {
    svc = await startTestService();
    config = { ...svc.services.config, databaseUrl: svc.databaseUrl };
    const rng = mulberry32(20261123);
    const pick = <T>(xs: T[]) => xs[Math.floor(rng() * xs.length)]!;
    const products: string[] = [];
    for (const [i, price] of [2000, 3500].entries()) {
      const s = await svc.newSupplier(`History ${i}`);
      suppliers.push(s);
      const productId = (await svc.newProduct({ name: `History ${i}` })).id;
      products.push(productId);
      await uploadedOffer(s, productId, { price, values: keys(`H${i}`, 60) });
    }
    const orders: { id: string; refunded: boolean }[] = [];
    const payouts: { id: string; status: string }[] = [];

    const snapshot = async () => {
      await svc.drain();
      const moment: Moment = { at: svc.clock.now().toISOString(), bySupplier: new Map() };
      for (const s of suppliers)
        moment.bySupplier.set(s.id, {
          balance: (await s.api.get('/balance')).body,
          entries: (await allPages(s.api, '/balance/entries?limit=200')).items,
          proof: (await s.api.get('/balance/proof')).body,
        });
      moments.push(moment);
      await svc.advance(1); // nothing else is posted at the snapshot's instant
    };

    await snapshot(); // before anything
    for (let step = 0; step < 48; step++) {
      const roll = rng();
      const i = Math.floor(rng() * suppliers.length);
      if (roll < 0.3) {
        const order = await buy(svc, [{ product_id: products[i]!, quantity: 1 + Math.floor(rng() * 2) }]);
        orders.push({ id: order.id, refunded: false });
      } else if (roll < 0.5) await svc.advance(200 + Math.floor(rng() * 600));
      else if (roll < 0.58) {
        const open = orders.filter((o) => !o.refunded);
        if (open.length > 0) {
          const o = pick(open);
          expect((await svc.operator.post(`/orders/${o.id}/refund`, {})).status).toBe(200);
          o.refunded = true;
        }
      } else if (roll < 0.78) {
        const available = (await suppliers[i]!.api.get('/balance')).body.available.amount;
        if (available >= 2000) {
          const res = await suppliers[i]!.api.post('/payouts', {
            amount: eur(2000 + Math.floor(rng() * (available - 2000))),
          });
          expect(res.status, res.text).toBe(201);
          payouts.push({ id: res.body.id, status: 'pending' });
        }
      } else if (roll < 0.95) {
        const moving = payouts.filter((p) => p.status === 'pending' || p.status === 'in_transit');
        if (moving.length > 0) {
          const p = pick(moving);
          const move =
            p.status === 'pending' ? pick(['in_transit', 'in_transit', 'cancel']) : pick(['paid', 'paid', 'failed']);
          const res = await svc.operator.post(`/payouts/${p.id}/${move}`);
          expect(res.status, res.text).toBe(200);
          p.status = res.body.status;
        }
      }
      if (step % 8 === 7) await snapshot();
    }
    await svc.advance(700); // everything sold settles
    await snapshot();
    // the history is varied enough to mean something
    const types = new Set([...moments.at(-1)!.bySupplier.values()].flatMap((m) => m.entries.map((e: any) => e.type)));
    expect([...types].sort()).toEqual(expect.arrayContaining(['payout', 'refund', 'sale', 'settlement']));
    expect(payouts.map((p) => p.status)).toEqual(['cancelled', 'in_transit', 'pending']);
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });
  afterEach(() => vi.restoreAllMocks());

  it('GET /balance?as_of and GET /balance/entries?as_of equal what the read models answered at that moment, for every moment', async () => {
    expect(moments.length).toBeGreaterThanOrEqual(6);
    for (const moment of moments)
      for (const s of suppliers) {
        const then = moment.bySupplier.get(s.id)!;
        const q = `as_of=${encodeURIComponent(moment.at)}`;
        expect((await s.api.get(`/balance?${q}`)).body, moment.at).toEqual(then.balance);
        expect((await allPages(s.api, `/balance/entries?${q}&limit=3`)).items, moment.at).toEqual(then.entries);
      }
  });

  it("equal the auditor's replay and `ledger balance --as-of` at every moment", async () => {
    for (const moment of moments)
      for (const s of suppliers) {
        const then = moment.bySupplier.get(s.id)!;
        const replay = (
          await replayLedger(svc.services.store, { supplierId: s.id, asOf: new Date(moment.at) })
        ).bySupplier.get(s.id);
        expect({ pending: replay?.pending ?? 0, available: replay?.available ?? 0 }).toEqual({
          pending: then.balance.pending.amount,
          available: then.balance.available.amount,
        });
        expect([...(replay?.entries.keys() ?? [])].sort()).toEqual(then.entries.map((e: any) => e.id).sort());
        const { code, out } = await run(ledgerBalance, ['--supplier', s.id, '--as-of', moment.at]);
        expect(code).toBe(0);
        expect(JSON.parse(out[0]!)).toEqual({
          supplier_id: s.id,
          as_of: moment.at,
          currency: 'EUR',
          available: then.balance.available,
          pending: then.balance.pending,
          updated_at: then.balance.updated_at,
          entries: then.entries.length,
          chain_head: then.proof.head,
        });
      }
  });

  it('filters as_of entries like the live list, and refuses a bad as_of', async () => {
    const s = suppliers[0]!;
    const mid = moments[Math.floor(moments.length / 2)]!;
    const live = mid.bySupplier.get(s.id)!.entries.filter((e: any) => e.type === 'sale');
    expect((await allPages(s.api, `/balance/entries?type=sale&as_of=${encodeURIComponent(mid.at)}`)).items).toEqual(
      live,
    );
    for (const bad of [
      '/balance?as_of=yesterday',
      '/balance/entries?as_of=2026-13-01T00:00:00Z',
      '/balance/proof?as_of=now',
    ]) {
      const res = await s.api.get(bad);
      expect([res.status, res.body.code], bad).toEqual([422, 'validation_failed']);
    }
  });

  it('GET /balance/proof?as_of returns the chain head kept at that moment, signed now beside the ledger now; a later head covers more entries', async () => {
    const view = (p: any) => ({
      as_of: p.as_of,
      head: p.head,
      entries: p.entries,
      last_entry_id: p.last_entry_id,
      last_entry_at: p.last_entry_at,
      root_hash: p.root_hash,
    });
    for (const s of suppliers) {
      const now = (await s.api.get('/balance/proof')).body;
      for (const moment of moments) {
        const kept = moment.bySupplier.get(s.id)!.proof;
        const again = (await s.api.get(`/balance/proof?as_of=${encodeURIComponent(moment.at)}`)).body;
        expect(view(again)).toEqual(view(kept));
        expect([again.signed_at, again.tree]).toEqual([now.signed_at, now.tree]);
      }
    }
    const first = moments[0]!.bySupplier.get(suppliers[0]!.id)!.proof;
    expect(first).toMatchObject({
      head: '0'.repeat(64),
      entries: 0,
      last_entry_id: null,
      last_entry_at: null,
      algorithm: 'sha256',
    });
    const last = moments.at(-1)!.bySupplier.get(suppliers[0]!.id)!.proof;
    expect(last.entries).toBeGreaterThan(5);
    expect(last.head).toMatch(/^[0-9a-f]{64}$/);
    // the head is the one `ledger verify` recomputes from the stored events
    expect(
      (await verifyLedger(svc.services.store, svc.services.ledger, { supplierId: suppliers[0]!.id })).heads.get(
        suppliers[0]!.id,
      ),
    ).toEqual({ hash: last.head, entries: last.entries });
  });

  describe('ledger verify', () => {
    const alphaEvents = () =>
      withDb(
        svc,
        async (db) =>
          (
            await db.query(
              `select event_id, stream_revision, type, data from es_events where stream_id = $1 order by stream_revision`,
              [`balance-${suppliers[0]!.id}`],
            )
          ).rows,
      );

    it('verifies untouched history', async () => {
      const { code, out } = await run(ledgerVerify, []);
      expect(code).toBe(0);
      expect(out.at(-1)).toMatch(/^OK: \d+ entries of 2 supplier\(s\) verified, 0 refused$/);
      expect((await run(ledgerVerify, ['--supplier', suppliers[1]!.id])).code).toBe(0);
    });

    it("fails when one stored event's data is changed, naming the entry", async () => {
      const events = await alphaEvents();
      const target = events.find((e) => e.type === 'SaleCredited')!;
      await withDb(svc, (db) =>
        db.query(
          `update es_events set data = jsonb_set(data, '{net}', to_jsonb((data->>'net')::int + 1)) where event_id = $1`,
          [target.event_id],
        ),
      );
      try {
        const { code, out } = await run(ledgerVerify, []);
        expect(code).toBe(1);
        // the changed entry, and every entry after it (none continues the ledger it accepted)
        const after = events.filter((e) => e.stream_revision > target.stream_revision);
        expect(out).toEqual([
          `REFUSED supplier ${suppliers[0]!.id}: entry ${target.data.entryId} (event ${target.event_id}, revision ${target.stream_revision}) its stored content does not match what was signed: it was changed after it was written`,
          ...after.map(
            (e) =>
              `REFUSED supplier ${suppliers[0]!.id}: entry ${e.data.entryId} (event ${e.event_id}, revision ${e.stream_revision}) is the ledger's entry #${e.data.chain.seq} as signed, and stands where entry #${target.data.chain.seq} belongs: an entry before it was deleted, changed or moved`,
          ),
          expect.stringMatching(
            new RegExp(`^FAILED: \\d+ entries of 2 supplier\\(s\\) verified, ${1 + after.length} refused$`),
          ),
        ]);
        // the other supplier's chain is intact
        expect((await run(ledgerVerify, ['--supplier', suppliers[1]!.id])).code).toBe(0);
      } finally {
        await withDb(svc, (db) =>
          db.query(`update es_events set data = $2 where event_id = $1`, [target.event_id, target.data]),
        );
      }
      expect((await run(ledgerVerify, [])).code).toBe(0);
    });

    it('fails when a link is rewritten to match changed content: that entry is not signed, and the next no longer follows', async () => {
      const events = await alphaEvents();
      const target = events[2]!;
      const next = events[3]!;
      // a forger who recomputes this entry's own hash still breaks the link after it
      const { linkHash } = await import('../../src/domain/ledger-chain.js');
      const forged = { ...target.data, at: '2020-01-01T00:00:00.000Z' };
      forged.chain = {
        ...target.data.chain,
        hash: linkHash(target.data.chain.prev, { type: target.type, data: forged }),
      };
      await withDb(svc, (db) =>
        db.query(`update es_events set data = $2 where event_id = $1`, [target.event_id, forged]),
      );
      try {
        const { code, out } = await run(ledgerVerify, ['--supplier', suppliers[0]!.id]);
        expect(code).toBe(1);
        expect(out.slice(0, 2)).toEqual([
          `REFUSED supplier ${suppliers[0]!.id}: entry ${target.data.entryId} (event ${target.event_id}, revision ${target.stream_revision}) its signature does not verify under key ${target.data.chain.keyId}: it was written or rewritten without the ledger's key`,
          `REFUSED supplier ${suppliers[0]!.id}: entry ${next.data.entryId} (event ${next.event_id}, revision ${next.stream_revision}) is the ledger's entry #3 as signed, and stands where entry #2 belongs: an entry before it was deleted, changed or moved`,
        ]);
      } finally {
        await withDb(svc, (db) =>
          db.query(`update es_events set data = $2 where event_id = $1`, [target.event_id, target.data]),
        );
      }
    });

    it('fails when two stored events are swapped, naming the first moved entry', async () => {
      const events = await alphaEvents();
      const [a, b] = [events[1]!, events[2]!];
      const swap = `update es_events e set type = o.type, data = o.data from es_events o where (e.event_id, o.event_id) in (($1, $2), ($2, $1))`;
      await withDb(svc, (db) => db.query(swap, [a.event_id, b.event_id]));
      try {
        const { code, out } = await run(ledgerVerify, []);
        expect(code).toBe(1);
        expect(out[0]).toBe(
          `REFUSED supplier ${suppliers[0]!.id}: entry ${b.data.entryId} (event ${a.event_id}, revision 1) is the ledger's entry #2 as signed, and stands where entry #1 belongs: an entry before it was deleted, changed or moved`,
        );
      } finally {
        await withDb(svc, (db) => db.query(swap, [a.event_id, b.event_id]));
      }
      expect((await run(ledgerVerify, [])).code).toBe(0);
    });

    it('fails when one stored event is deleted, naming the entry after the gap', async () => {
      const events = await alphaEvents();
      const [gone, after] = [events[3]!, events[4]!];
      await withDb(svc, (db) => db.query(`delete from es_events where event_id = $1`, [gone.event_id]));
      const { code, out } = await run(ledgerVerify, []);
      expect(code).toBe(1);
      expect(out[0]).toBe(
        `REFUSED supplier ${suppliers[0]!.id}: entry ${after.data.entryId} (event ${after.event_id}, revision 4) is the ledger's entry #4 as signed, and stands where entry #3 belongs: an entry before it was deleted, changed or moved`,
      );
    });
  });
});
