import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerStatement } from '../../src/cli/ledger.js';
import type { Config } from '../../src/config.js';
import { newLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import { monthBounds } from '../../src/projections/ledger-statement.js';
import { startTestService, type TestService } from '../support/harness.js';
import { buy, eur, keys, type Supplier, uploadedOffer, troubles } from '../orders/fixtures.js';

/**
 * Monthly statements for accountants: opening balance, the month's entries with the
 * balances after each, closing balance; as CSV and printable HTML from the CLI, and over
 * HTTP with Accept negotiation. Exact values over a January and a February.
 */
describe('monthly statements', () => {
  let svc: TestService;
  let config: Config;
  let gamma: Supplier;
  const item: Record<string, string> = {};
  const order: Record<string, string> = {};
  let payoutId: string;

  beforeAll(async () => {
    // the CLI signs its statements with the service's key, which the config names
    svc = await startTestService({ extraConfig: { ledgerSigningKey: newLedgerSigningKey() } }); // the clock starts at 2026-01-05T10:00:00Z
    config = { ...svc.services.config, databaseUrl: svc.databaseUrl };
    gamma = await svc.newSupplier('Statement Gamma');
    const productId = (await svc.newProduct({ name: 'Statement' })).id;
    await uploadedOffer(gamma, productId, { price: 3000, values: keys('ST', 5) }); // 3000: 255, 2745
    const sell = async (name: string) => {
      const o = await buy(svc, [{ product_id: productId, quantity: 1 }]);
      order[name] = o.id;
      item[name] = o.items[0].id;
    };
    await sell('o1'); // 10:00:00
    await svc.advance(60);
    await sell('o2'); // 10:01:00
    await svc.advance(60);
    expect((await svc.operator.post(`/orders/${order.o2}/refund`, {})).status).toBe(200); // 10:02:00
    await svc.advance(480); // 10:10:00: o1 settles
    await svc.advance((Date.parse('2026-02-01T01:00:00Z') - svc.clock.now().getTime()) / 1000);
    const payout = await gamma.api.post('/payouts', { amount: eur(2000) }); // 2026-02-01T01:00:00
    expect(payout.status, payout.text).toBe(201);
    payoutId = payout.body.id;
    await svc.advance(60);
    await sell('o3'); // 01:01:00, still pending at the end
    await svc.drain();
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
  });
  afterEach(() => vi.restoreAllMocks());

  const run = async (args: string[]) => {
    const out: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
    const code = await run0(args);
    vi.restoreAllMocks();
    return { code, out: out.join('') };
  };
  const run0 = (args: string[]) => ledgerStatement(config, args, svc.clock);

  const januaryCsv = () =>
    [
      'id,created_at,type,account,amount,currency,gross,commission,order_id,order_item_id,payout_id,available_at,pending_after,available_after',
      ',2026-01-01T00:00:00.000Z,opening_balance,,,EUR,,,,,,,0.00,0.00',
      `sale-${item.o1}:pending,2026-01-05T10:00:00.000Z,sale,pending,27.45,EUR,30.00,2.55,${order.o1},${item.o1},,2026-01-05T10:10:00.000Z,27.45,0.00`,
      `sale-${item.o2}:pending,2026-01-05T10:01:00.000Z,sale,pending,27.45,EUR,30.00,2.55,${order.o2},${item.o2},,2026-01-05T10:11:00.000Z,54.90,0.00`,
      `refund-${item.o2}:pending,2026-01-05T10:02:00.000Z,refund,pending,-27.45,EUR,-30.00,-2.55,${order.o2},${item.o2},,,27.45,0.00`,
      `settlement-${item.o1}:pending,2026-01-05T10:10:00.000Z,settlement,pending,-27.45,EUR,,,${order.o1},${item.o1},,,0.00,0.00`,
      `settlement-${item.o1}:available,2026-01-05T10:10:00.000Z,settlement,available,27.45,EUR,,,${order.o1},${item.o1},,,0.00,27.45`,
      ',2026-02-01T00:00:00.000Z,closing_balance,,,EUR,,,,,,,0.00,27.45',
    ].join('\r\n') + '\r\n';

  const februaryCsv = () =>
    [
      'id,created_at,type,account,amount,currency,gross,commission,order_id,order_item_id,payout_id,available_at,pending_after,available_after',
      ',2026-02-01T00:00:00.000Z,opening_balance,,,EUR,,,,,,,0.00,27.45',
      `payout-${payoutId}:available,2026-02-01T01:00:00.000Z,payout,available,-20.00,EUR,,,,,${payoutId},,0.00,7.45`,
      `sale-${item.o3}:pending,2026-02-01T01:01:00.000Z,sale,pending,27.45,EUR,30.00,2.55,${order.o3},${item.o3},,2026-02-01T01:11:00.000Z,27.45,7.45`,
      ',2026-03-01T00:00:00.000Z,closing_balance,,,EUR,,,,,,,27.45,7.45',
    ].join('\r\n') + '\r\n';

  it('CSV from the CLI: opening, every entry with the balances after it, closing; months before and after', async () => {
    expect(await run(['--supplier', gamma.id, '--month', '2026-01', '--format', 'csv'])).toEqual({
      code: 0,
      out: januaryCsv(),
    });
    expect(await run(['--supplier', gamma.id, '--month', '2026-02', '--format', 'csv'])).toEqual({
      code: 0,
      out: februaryCsv(),
    });
    // the clock stands in February: March has not begun, and no statement of it is signed
    expect(await run(['--supplier', gamma.id, '--month', '2026-03'])).toEqual({
      code: 2,
      out: 'ERR no statement: 2026-03 has not begun\nusage: ledger statement --supplier ID --month YYYY-MM --format csv|html',
    });
    const december = await run(['--supplier', gamma.id, '--month', '2025-12']);
    expect(december.out.split('\r\n').slice(1, -1)).toEqual([
      ',2025-12-01T00:00:00.000Z,opening_balance,,,EUR,,,,,,,0.00,0.00',
      ',2026-01-01T00:00:00.000Z,closing_balance,,,EUR,,,,,,,0.00,0.00',
    ]);
    const usage = { code: 2, out: 'ERR usage: ledger statement --supplier ID --month YYYY-MM --format csv|html' };
    expect(await run(['--supplier', gamma.id, '--month', '2026-13'])).toEqual({
      code: 2,
      out: `ERR --month 2026-13 refused: a month is YYYY-MM${usage.out}`,
    });
    expect(await run(['--supplier', gamma.id, '--month', '2026-02', '--format', 'pdf'])).toEqual(usage);
    expect(await run(['--month', '2026-02'])).toEqual(usage);
  });

  it('the CLI refuses a month of a year before 2000 or after next year by its clock, which Date.UTC would read as 19xx', async () => {
    // the clock stands in 2026: the months run from 2000-01 to 2027-12
    const usage = 'ERR usage: ledger statement --supplier ID --month YYYY-MM --format csv|html';
    for (const month of ['0000-01', '0050-06', '0099-12', '1999-12', '2028-01', '9999-12'])
      expect(await run(['--supplier', gamma.id, '--month', month])).toEqual({
        code: 2,
        out: `ERR --month ${month} refused: a month from 2000-01 to 2027-12${usage}`,
      });
    for (const month of ['2000-01', '2026-02']) {
      const { code, out } = await run(['--supplier', gamma.id, '--month', month]);
      expect([month, code, out.split('\r\n')[1]]).toEqual([
        month,
        0,
        `,${month}-01T00:00:00.000Z,opening_balance,,,EUR,,,,,,,${month === '2000-01' ? '0.00,0.00' : '0.00,27.45'}`,
      ]);
    }
    // within the years, but not begun by the clock: nothing is signed of it yet
    expect((await run(['--supplier', gamma.id, '--month', '2027-12'])).code).toBe(2);
    // a year below 100 is the year written, never 19xx
    expect(monthBounds('0050-06')).toEqual({
      from: new Date('0050-06-01T00:00:00.000Z'),
      to: new Date('0050-07-01T00:00:00.000Z'),
    });
  });

  it('printable HTML from the CLI: the same figures in euros, no script, no external asset', async () => {
    const { code, out } = await run(['--supplier', gamma.id, '--month', '2026-02', '--format', 'html']);
    expect(code).toBe(0);
    expect(out).toMatch(/^<!doctype html>/);
    expect(out).toContain(`<title>Statement 2026-02 — Statement Gamma</title>`);
    expect(out).toContain(`Supplier <strong>Statement Gamma</strong> (${gamma.id})`);
    expect(out).toContain('@media print');
    expect(out).not.toMatch(/<script|<link|src=|https?:/);
    const rows = [...out.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) =>
      [...m[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1]),
    );
    expect(rows).toEqual([
      ['Date', 'Line', 'Gross', 'Commission', 'Net', 'Pending after', 'Available after'],
      ['2026-02-01 00:00', 'Opening balance', '0.00', '27.45'],
      [
        '2026-02-01 01:00',
        `payout · available<br><small class="id">payout ${payoutId}<br>entry payout-${payoutId}:available</small>`,
        '',
        '',
        '-20.00',
        '0.00',
        '7.45',
      ],
      [
        '2026-02-01 01:01',
        `sale · pending<br><small class="id">order ${order.o3} · item ${item.o3}<br>entry sale-${item.o3}:pending</small>`,
        '30.00',
        '2.55',
        '27.45',
        '27.45',
        '7.45',
      ],
      ['2026-03-01 00:00', 'Closing balance', '27.45', '7.45'],
    ]);
  });

  it('GET /balance/statements/{month}: JSON by default, CSV and HTML by Accept, the same figures', async () => {
    const json = await gamma.api.get('/balance/statements/2026-02');
    expect(json.status, json.text).toBe(200);
    const entry = (fields: Record<string, unknown>) => ({
      order_id: null,
      order_item_id: null,
      payout_id: null,
      available_at: null,
      ...fields,
    });
    expect(json.body).toEqual({
      supplier_id: gamma.id,
      supplier_name: 'Statement Gamma',
      month: '2026-02',
      from: '2026-02-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      currency: 'EUR',
      opening: { pending: eur(0), available: eur(2745) },
      entries: [
        entry({
          id: `payout-${payoutId}:available`,
          type: 'payout',
          amount: eur(-2000),
          account: 'available',
          payout_id: payoutId,
          created_at: '2026-02-01T01:00:00.000Z',
          pending_after: eur(0),
          available_after: eur(745),
          gross: null,
          commission: null,
        }),
        entry({
          id: `sale-${item.o3}:pending`,
          type: 'sale',
          amount: eur(2745),
          account: 'pending',
          order_id: order.o3,
          order_item_id: item.o3,
          created_at: '2026-02-01T01:01:00.000Z',
          available_at: '2026-02-01T01:11:00.000Z',
          pending_after: eur(2745),
          available_after: eur(745),
          gross: eur(3000),
          commission: eur(255),
        }),
      ],
      closing: { pending: eur(2745), available: eur(745) },
      // the head over every entry up to the month's end, as of the latest of them: the proof's then
      checkpoint: (await gamma.api.get('/balance/proof?as_of=2026-02-01T01:01:00.000Z')).body.checkpoint,
    });
    expect(JSON.parse(json.body.checkpoint.signed)).toMatchObject({
      supplier_id: gamma.id,
      as_of: '2026-02-01T01:01:00.000Z',
      as_of_tree_size: 6,
    });
    const csv = await gamma.api.get('/balance/statements/2026-01', { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="statement-2026-01.csv"');
    expect(csv.text).toBe(januaryCsv());
    const html = await gamma.api.get('/balance/statements/2026-02', {
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' },
    });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // the same page as the command line's, but for the head, each signed when it was made
    const page = (text: string) => text.split('<h2>Ledger checkpoint</h2>');
    const cli = (await run(['--supplier', gamma.id, '--month', '2026-02', '--format', 'html'])).out;
    expect(page(html.text)[0]).toBe(page(cli)[0]);
    expect([page(html.text).length, page(cli).length]).toEqual([2, 2]);
    // preference order decides; q=0 refuses
    expect(
      (await gamma.api.get('/balance/statements/2026-02', { headers: { accept: 'text/csv;q=0.5, application/json' } }))
        .body.month,
    ).toBe('2026-02');
    expect(
      (await gamma.api.get('/balance/statements/2026-02', { headers: { accept: 'text/html;q=0, text/csv' } })).text,
    ).toBe(februaryCsv());
    for (const bad of ['2026-13', '2026-2', 'latest']) {
      const res = await gamma.api.get(`/balance/statements/${bad}`);
      expect([bad, res.status, res.body.code, res.body.errors]).toEqual([
        bad,
        422,
        'validation_failed',
        [{ field: 'params.month', message: 'YYYY-MM' }],
      ]);
    }
    // another supplier's statement is its own (empty) one
    const other = await svc.newSupplier('Statement Other');
    expect((await other.api.get('/balance/statements/2026-02')).body).toMatchObject({
      supplier_id: other.id,
      entries: [],
      closing: { pending: eur(0), available: eur(0) },
    });
  });

  it('GET /balance/statements/{month} refuses the years before 2000 and after next year by the service clock', async () => {
    const refused = async (month: string, last: number) => {
      const res = await gamma.api.get(`/balance/statements/${month}`);
      expect([month, res.status, res.headers.get('content-type'), res.body.code, res.body.errors]).toEqual([
        month,
        422,
        'application/problem+json; charset=utf-8',
        'validation_failed',
        [{ field: 'params.month', message: `a month from 2000-01 to ${last}-12` }],
      ]);
    };
    const answered = async (month: string) => {
      const res = await gamma.api.get(`/balance/statements/${month}`);
      expect([month, res.status, res.body.from]).toEqual([month, 200, `${month}-01T00:00:00.000Z`]);
    };
    const notBegun = async (month: string) => {
      const res = await gamma.api.get(`/balance/statements/${month}`);
      expect([month, res.status, res.body.code, res.body.errors]).toEqual([
        month,
        422,
        'validation_failed',
        [{ field: 'params.month', message: 'must not be a month after the current one' }],
      ]);
    };
    // the service's clock stands in 2026
    for (const month of ['0000-01', '0026-01', '0099-12', '1999-12', '2028-01', '9999-12']) await refused(month, 2027);
    await answered('2000-01');
    await answered('2026-02');
    // within the years, but a month not begun has no statement to sign yet
    await notBegun('2027-12');
    // a year later by the service's clock (the machine's own has not moved), the next year opens
    await svc.advance((Date.parse('2027-01-01T00:00:00Z') - svc.clock.now().getTime()) / 1000);
    await answered('2027-01');
    await notBegun('2028-12');
    await refused('2029-01', 2028);
  });
});
