import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLedger } from '../../src/cli/ledger-audit.js';
import { ledgerAudit, ledgerBalance, ledgerExport, ledgerVerify } from '../../src/cli/ledger.js';
import type { Config } from '../../src/config.js';
import { startTestService, type TestService } from '../support/harness.js';
import { buy, keys, type Supplier, uploadedOffer, withDb, troubles } from '../orders/fixtures.js';

/**
 * `npm run cli -- ledger audit|export`: replays the SupplierBalance events and compares them
 * with the read models. The commands run in-process against the test database
 * (Config.databaseUrl), exactly as main.ts calls them.
 */
describe('ledger audit and export', () => {
  let svc: TestService;
  let config: Config;
  let alpha: Supplier;
  let beta: Supplier;
  const t: string[] = [];
  const orders: Record<string, { orderId: string; itemId: string }> = {};

  beforeAll(async () => {
    // a test here holds a read model still on purpose: a short bound for waiting on it (the
    // lock's open transaction holds back every database's readers on the shared server)
    svc = await startTestService({ extraConfig: { readModelWaitMs: 5_000 } });
    config = { ...svc.services.config, databaseUrl: svc.databaseUrl };
    alpha = await svc.newSupplier('Audited Alpha');
    beta = await svc.newSupplier('Audited Beta');
    const pa = (await svc.newProduct({ name: 'Audit A' })).id;
    const pb = (await svc.newProduct({ name: 'Audit B' })).id;
    await uploadedOffer(alpha, pa, { price: 1000, values: keys('AA', 5) }); // 1000: 85, 915
    await uploadedOffer(beta, pb, { price: 2500, values: keys('AB', 5) }); // 2500: 212.5 -> 213, 2287
    const sell = async (name: string, productId: string) => {
      const order = await buy(svc, [{ product_id: productId, quantity: 1 }]);
      orders[name] = { orderId: order.id, itemId: order.items[0].id };
    };
    t.push(svc.clock.now().toISOString());
    await sell('a1', pa);
    await sell('b1', pb);
    await svc.advance(600); // both settle
    t.push(svc.clock.now().toISOString());
    await svc.advance(60);
    t.push(svc.clock.now().toISOString());
    await sell('a2', pa);
    expect((await svc.operator.post(`/orders/${orders.a2!.orderId}/refund`, {})).status).toBe(200);
    await svc.drain();
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });
  afterEach(() => vi.restoreAllMocks());

  /** Runs a CLI command in-process; returns its exit code and what it printed. */
  const run = async (command: (config: Config, args: string[]) => Promise<number>, args: string[]) => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
    const code = await command(config, args);
    vi.restoreAllMocks();
    return { code, out: out.join('\n') };
  };

  const tamper = async (sql: string, params: unknown[]) => withDb(svc, (db) => db.query(sql, params));

  it('passes on a clean ledger: every entry and every balance equal to the replay', async () => {
    const report = await auditLedger(svc.services.store, svc.services.db);
    expect(report).toMatchObject({ ledgerEvents: 6, suppliers: 2, entries: 8, differences: [] });
    const { code, out } = await run(ledgerAudit, []);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^OK: 6 ledger events of \d+ read, 2 supplier\(s\), 8 entries, 0 difference\(s\) in \d+\.\d s$/,
    );
  });

  it('fails on a tampered balance row and a tampered entry, naming both', async () => {
    const entryId = `sale-${orders.a1!.itemId}:pending`;
    await tamper(`update balances set available = available + 100 where supplier_id = $1`, [alpha.id]);
    await tamper(`update balance_entries set amount = amount - 15 where id = $1`, [entryId]);
    try {
      const { code, out } = await run(ledgerAudit, []);
      expect(code).toBe(1);
      expect(out.split('\n')).toEqual([
        `DIFFERENCE supplier ${alpha.id}: entry ${entryId} amount is 900 in the read model, 915 in the ledger`,
        `DIFFERENCE supplier ${alpha.id}: available is 1015 in the read model, 915 in the ledger`,
        expect.stringMatching(
          /^FAILED: 6 ledger events of \d+ read, 2 supplier\(s\), 8 entries, 2 difference\(s\) in /,
        ),
      ]);
      // the other supplier is clean
      expect((await run(ledgerAudit, ['--supplier', beta.id])).code).toBe(0);
      expect((await run(ledgerAudit, ['--supplier', alpha.id])).code).toBe(1);
    } finally {
      await tamper(`update balances set available = available - 100 where supplier_id = $1`, [alpha.id]);
      await tamper(`update balance_entries set amount = amount + 15 where id = $1`, [entryId]);
    }
    expect((await run(ledgerAudit, [])).code).toBe(0);
  });

  it('names an entry whose place in the order (seq) the read model changed', async () => {
    const id = `sale-${orders.b1!.itemId}:pending`;
    const { rows } = await tamper(`select seq from balance_entries where id = $1`, [id]);
    const seq = Number(rows[0].seq);
    await tamper(`update balance_entries set seq = -seq where id = $1`, [id]);
    try {
      const report = await auditLedger(svc.services.store, svc.services.db);
      expect(report.differences).toEqual([
        `supplier ${beta.id}: entry ${id} seq is ${-seq} in the read model, ${seq} in the ledger`,
      ]);
    } finally {
      await tamper(`update balance_entries set seq = -seq where id = $1`, [id]);
    }
  });

  it('names entries missing from the read model, entries and balances the ledger never posted', async () => {
    const entryId = `settlement-${orders.b1!.itemId}:available`;
    const row = await withDb(
      svc,
      async (db) => (await db.query(`select * from balance_entries where id = $1`, [entryId])).rows[0],
    );
    await tamper(`delete from balance_entries where id = $1`, [entryId]);
    await tamper(
      `insert into balance_entries (id, seq, supplier_id, type, account, amount, order_id, order_item_id, created_at, available_at)
                  values ('forged:available', 1, $1, 'sale', 'available', 5000, 'o-forged', 'i-forged', now(), null)`,
      [beta.id],
    );
    await tamper(
      `insert into balances (supplier_id, pending, available, updated_at) values ('zz-no-such-supplier', 100, 0, now())`,
      [],
    );
    try {
      const report = await auditLedger(svc.services.store, svc.services.db);
      expect(report.differences).toEqual([
        `supplier ${beta.id}: entry ${entryId} (settlement available 2287 (order item ${orders.b1!.itemId})) is missing from the read model`,
        `supplier ${beta.id}: entry forged:available (sale available 5000 (order item i-forged)) is in the read model but not in the ledger`,
        'supplier zz-no-such-supplier: pending is 100 in the read model, 0 in the ledger',
      ]);
    } finally {
      await tamper(`delete from balances where supplier_id = 'zz-no-such-supplier'`, []);
      await tamper(`delete from balance_entries where id = 'forged:available'`, []);
      await withDb(svc, (db) =>
        db.query(
          `insert into balance_entries (id, seq, supplier_id, type, account, amount, order_id, order_item_id, created_at, available_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            row.id,
            row.seq,
            row.supplier_id,
            row.type,
            row.account,
            row.amount,
            row.order_id,
            row.order_item_id,
            row.created_at,
            row.available_at,
          ],
        ),
      );
    }
    expect((await auditLedger(svc.services.store, svc.services.db)).differences).toEqual([]);
  });

  it('--as-of replays and compares only what was posted up to that instant', async () => {
    // as of the settlements: the later sale and its refund are out of both sides
    const asOf = await auditLedger(svc.services.store, svc.services.db, { asOf: new Date(t[1]!) });
    expect(asOf).toMatchObject({ ledgerEvents: 4, suppliers: 2, entries: 6, differences: [] });
    const before = await auditLedger(svc.services.store, svc.services.db, { asOf: new Date(t[0]!) });
    expect(before).toMatchObject({ ledgerEvents: 2, entries: 2, differences: [] });

    // tampering after the instant does not show as of it, and does without it
    const late = `refund-${orders.a2!.itemId}:pending`;
    await tamper(`update balance_entries set amount = amount + 1 where id = $1`, [late]);
    try {
      const { code, out } = await run(ledgerAudit, ['--as-of', t[1]!.replace('.000Z', 'Z')]);
      expect(code).toBe(0);
      expect(out).toMatch(/^OK: 4 ledger events of \d+ read, 2 supplier\(s\), 6 entries, 0 difference\(s\)/);
      const now = await run(ledgerAudit, []);
      expect(now.code).toBe(1);
      expect(now.out).toContain(
        `DIFFERENCE supplier ${alpha.id}: entry ${late} amount is -914 in the read model, -915 in the ledger`,
      );
    } finally {
      await tamper(`update balance_entries set amount = amount - 1 where id = $1`, [late]);
    }
    expect(await run(ledgerAudit, ['--as-of', 'last tuesday'])).toEqual({
      code: 2,
      out: 'ERR --as-of last tuesday is not an ISO 8601 timestamp\nusage: ledger audit [--supplier ID] [--as-of TIMESTAMP]',
    });
  });

  it("exports a supplier's entries as CSV and as JSON lines, replayed from the events", async () => {
    const a1 = orders.a1!;
    const a2 = orders.a2!;
    const sold = t[0]!;
    const settled = t[1]!;
    const later = t[2]!;
    const availableAt = new Date(new Date(sold).getTime() + 600_000).toISOString();
    const laterAvailableAt = new Date(new Date(later).getTime() + 600_000).toISOString();
    const rows = [
      {
        id: `sale-${a1.itemId}:pending`,
        type: 'sale',
        account: 'pending',
        amount: 915,
        currency: 'EUR',
        order_id: a1.orderId,
        order_item_id: a1.itemId,
        payout_id: null,
        created_at: sold,
        available_at: availableAt,
      },
      {
        id: `settlement-${a1.itemId}:pending`,
        type: 'settlement',
        account: 'pending',
        amount: -915,
        currency: 'EUR',
        order_id: a1.orderId,
        order_item_id: a1.itemId,
        payout_id: null,
        created_at: settled,
        available_at: null,
      },
      {
        id: `settlement-${a1.itemId}:available`,
        type: 'settlement',
        account: 'available',
        amount: 915,
        currency: 'EUR',
        order_id: a1.orderId,
        order_item_id: a1.itemId,
        payout_id: null,
        created_at: settled,
        available_at: null,
      },
      {
        id: `sale-${a2.itemId}:pending`,
        type: 'sale',
        account: 'pending',
        amount: 915,
        currency: 'EUR',
        order_id: a2.orderId,
        order_item_id: a2.itemId,
        payout_id: null,
        created_at: later,
        available_at: laterAvailableAt,
      },
      {
        id: `refund-${a2.itemId}:pending`,
        type: 'refund',
        account: 'pending',
        amount: -915,
        currency: 'EUR',
        order_id: a2.orderId,
        order_item_id: a2.itemId,
        payout_id: null,
        created_at: later,
        available_at: null,
      },
    ];
    const jsonl = await run(ledgerExport, ['--supplier', alpha.id, '--format', 'jsonl']);
    expect(jsonl.code).toBe(0);
    expect(jsonl.out).toBe(rows.map((r) => `${JSON.stringify(r)}\n`).join('\n'));

    const csv = await run(ledgerExport, ['--supplier', alpha.id, '--format', 'csv']);
    expect(csv.code).toBe(0);
    // the ledger's one CSV (src/projections/ledger-csv.ts), with the balances after each entry
    const balancesAfter = [
      [915, 0],
      [0, 0],
      [0, 915],
      [915, 915],
      [0, 915],
    ];
    const lines = [
      'id,created_at,type,account,amount,currency,gross,commission,order_id,order_item_id,payout_id,available_at,pending_after,available_after',
      ...rows.map((r, i) =>
        [
          r.id,
          r.created_at,
          r.type,
          r.account,
          // decimals, as the pages show them; no gross or commission in an export of entries
          (r.amount / 100).toFixed(2),
          r.currency,
          '',
          '',
          r.order_id,
          r.order_item_id,
          '',
          r.available_at ?? '',
          ...balancesAfter[i]!.map((b) => (b / 100).toFixed(2)),
        ].join(','),
      ),
    ];
    expect(csv.out).toBe(lines.map((l) => `${l}\r\n`).join(''));
    // the API shows the same entries
    const api = (await alpha.api.get('/balance/entries')).body.data;
    expect(api.map((e: any) => [e.id, e.amount.amount, e.created_at, e.available_at])).toEqual(
      rows.map((r) => [r.id, r.amount, r.created_at, r.available_at]),
    );

    // --from inclusive, --to exclusive, on created_at
    const window = await run(ledgerExport, [
      '--supplier',
      alpha.id,
      '--format',
      'jsonl',
      '--from',
      settled,
      '--to',
      later,
    ]);
    expect(window.out).toBe(
      rows
        .slice(1, 3)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join('\n'),
    );
    const fromLater = await run(ledgerExport, ['--supplier', alpha.id, '--format', 'jsonl', '--from', later]);
    expect(fromLater.out).toBe(
      rows
        .slice(3)
        .map((r) => `${JSON.stringify(r)}\n`)
        .join('\n'),
    );
    const usage = 'ERR usage: ledger export --supplier ID --format csv|jsonl [--from TIMESTAMP] [--to TIMESTAMP]';
    expect(await run(ledgerExport, ['--supplier', alpha.id, '--format', 'jsonl', '--to', 'soon'])).toEqual({
      code: 2,
      out: usage,
    });
    // a wrong value names itself; without --format nothing is guessed
    expect(await run(ledgerExport, ['--supplier', alpha.id, '--format', 'xml'])).toEqual({
      code: 2,
      out: `ERR --format xml is not csv or jsonl\n${usage.slice('ERR '.length)}`,
    });
    expect(await run(ledgerExport, ['--supplier', alpha.id])).toEqual({ code: 2, out: usage });
    expect((await run(ledgerExport, ['--format', 'csv'])).code).toBe(2);
    expect(await run(ledgerExport, ['--supplier', 'nobody', '--format', 'jsonl'])).toEqual({ code: 0, out: '' });
  });

  it('refuses a half-typed or misspelt command with its usage, exit 2, before reading anything', async () => {
    const refused = [
      [ledgerAudit, ['--supplier']],
      [ledgerAudit, ['--as-of']],
      [ledgerAudit, ['--supplier', '--as-of', '2026-01-01']],
      [ledgerAudit, ['--suplier', 'S1']],
      [ledgerAudit, ['S1']],
      [ledgerAudit, ['--as-of', '2026-02-30']],
      [ledgerAudit, ['--as-of', '1']],
      [ledgerAudit, ['--as-of', '2026-06-01 10:00']],
      [ledgerBalance, ['--supplier', alpha.id, '--as-of', '2026-13-01']],
      [ledgerVerify, ['--supplier']],
      [ledgerExport, ['--supplier', alpha.id, '--format', 'csv', '--from', 'yesterday']],
    ] as const;
    for (const [command, args] of refused) {
      const { code, out } = await run(command, [...args]);
      expect({ args, code, usage: /usage: ledger /.test(out) }).toEqual({ args, code: 2, usage: true });
    }
    // a timestamp with its zone, or a bare date (midnight UTC), is read as written
    expect((await run(ledgerAudit, ['--supplier', alpha.id, '--as-of', '2026-01-05T10:00:00+01:00'])).code).toBe(0);
    expect((await run(ledgerAudit, ['--supplier', alpha.id, '--as-of', '2026-01-05'])).code).toBe(0);
  });

  it('on a running service: the read models a sale behind, then caught up, show no difference either time', async () => {
    const productId = (await svc.newProduct({ name: 'Audit Live' })).id;
    await uploadedOffer(alpha, productId, { price: 1000, values: keys('AL', 1) });
    await svc.drain();
    const audit = () => auditLedger(svc.services.store, svc.services.commands.db);
    const before = await audit();
    expect(before.differences).toEqual([]);
    // the ledger's read model held still: its projector waits on the lock, reads go on
    const locker = new pg.Client({ connectionString: svc.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table balance_entries in exclusive mode');
      await buy(svc, [{ product_id: productId, quantity: 1 }]);
      const behind = await audit();
      expect({ differences: behind.differences, entries: behind.entries }).toEqual({
        differences: [],
        entries: before.entries,
      });
      await locker.query('commit');
    } finally {
      await locker.end();
    }
    await svc.drain();
    const caughtUp = await audit();
    expect({ differences: caughtUp.differences, entries: caughtUp.entries }).toEqual({
      differences: [],
      entries: before.entries + 1,
    });
  });
});
