import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, calls, startWorld, type World } from './support.js';

const FORM = [
  {
    key: 'user_id',
    label: 'Player ID',
    type: 'text',
    required: true,
    pattern: '^[0-9]{6}$',
    max_length: 6,
    help_text: null,
    options: null,
  },
  {
    key: 'server',
    label: 'Server',
    type: 'select',
    required: true,
    pattern: null,
    max_length: null,
    help_text: null,
    options: [
      { value: 'eu', label: 'Europe' },
      { value: 'us', label: 'America' },
    ],
  },
  {
    key: 'amount',
    label: 'Amount',
    type: 'number',
    required: false,
    pattern: null,
    max_length: 4,
    help_text: null,
    options: null,
  },
];

/**
 * Top-up checkout: the buyer's fields against the product's form (422 naming each field,
 * before any supplier call), then POST /topup/validate (10 s, lowered here; no retry):
 * valid shows account_label; invalid refuses checkout with the supplier's code; a timeout or
 * 5xx blocks the offer, costs 2 points, and the next offer is tried.
 */
describe('top-up checkout and POST /topup/validate', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ validateMs: 300 });
  });
  afterAll(async () => {
    w.expectNoServerErrors();
    await w.stop();
  });

  const product = () => w.svc.newProduct({ type: 'topup', form_fields: FORM }).then((p) => p.id as string);
  const supplierCalls = (kit: { received: { route: string | null }[] }) =>
    kit.received.filter((r) => r.route !== 'GET /healthcheck');

  it('form fields are checked first: a 422 naming each bad field, and no supplier call', async () => {
    const p = await product();
    const s = await w.seller(p, 500);
    const cases: [Record<string, string>, { field: string; message: string }[]][] = [
      [
        {},
        [
          { field: 'body.form_fields.user_id', message: 'Player ID is required' },
          { field: 'body.form_fields.server', message: 'Server is required' },
        ],
      ],
      [
        { user_id: '1234567', server: 'mars', amount: '12345', colour: 'red' },
        [
          { field: 'body.form_fields.user_id', message: 'at most 6 characters' },
          { field: 'body.form_fields.user_id', message: 'does not match ^[0-9]{6}$' },
          { field: 'body.form_fields.server', message: 'must be one of eu, us' },
          { field: 'body.form_fields.amount', message: 'at most 4 characters' },
          { field: 'body.form_fields.colour', message: 'not a field of this product' },
        ],
      ],
      [
        { user_id: '12a456', server: 'eu', amount: 'ten' },
        [
          { field: 'body.form_fields.user_id', message: 'does not match ^[0-9]{6}$' },
          { field: 'body.form_fields.amount', message: 'must be a number' },
        ],
      ],
    ];
    for (const [formFields, errors] of cases) {
      const refused = await w.checkout(p, { formFields });
      expect([refused.status, refused.body.errors]).toEqual([422, errors]);
      const sandbox = await s.api.post('/sandbox/orders', {
        offer_id: s.offerId,
        quantity: 1,
        buyer_country: 'DE',
        form_fields: formFields,
      });
      expect([sandbox.status, sandbox.body.errors]).toEqual([422, errors]);
    }
    expect(supplierCalls(s.kit)).toEqual([]);
    expect((await w.health(s)).score).toBe(100);
  });

  it('valid: the account label shows on the order; validate is side-effect free at the supplier', async () => {
    const p = await product();
    const s = await w.seller(p, 500, { topupAccounts: { '123456': { label: 'Ada on EU-1', servers: ['eu'] } } });
    const t0 = w.svc.clock.now().getTime();
    const placed = await w.place(p, { quantity: 2, formFields: { user_id: '123456', server: 'eu', amount: '50' } });
    const [validate] = calls(s.kit, 'POST /topup/validate');
    expect([validate!.status, validate!.at - t0, bodyOf(validate!)]).toEqual([
      200,
      0,
      {
        operation_id: placed.items[0].fulfilment.operation_id,
        offer_id: s.offerId,
        external_ref: s.externalRef,
        product_id: p,
        quantity: 2,
        buyer_country: 'DE',
        form_fields: { user_id: '123456', server: 'eu', amount: '50' },
      },
    ]);
    expect(placed.items.map((i: any) => [i.offer_id, i.quantity, i.status, i.fulfilment])).toEqual([
      [
        s.offerId,
        2,
        'reserved',
        {
          source: 'topup',
          reservation_id: null,
          inventory_item_ids: [],
          operation_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
          account_label: 'Ada on EU-1',
          receipt_ref: null,
        },
      ],
    ]);
    expect((await s.api.get(`/orders/${placed.id}`)).body.items[0].fulfilment.account_label).toBe('Ada on EU-1');
    expect(s.kit.state.operations).toEqual({});
    expect(supplierCalls(s.kit).map((r) => r.route)).toEqual(['POST /topup/validate']);
  });

  it('invalid: each closed code refuses the checkout with the supplier code and message; the next offer is not asked', async () => {
    const p = await product();
    const s = await w.seller(p, 400, {
      topupAccounts: {
        '200001': { label: 'Elsewhere', servers: ['us'] },
        '200002': { label: 'Banned', eligible: false },
        '200003': { label: 'Capped', maxQuantity: 1 },
      },
    });
    const other = await w.seller(p, 450);
    const cases: [Record<string, string>, number, string][] = [
      [{ user_id: '200000', server: 'eu' }, 1, 'invalid_user_id'],
      [{ user_id: '200001', server: 'eu' }, 1, 'invalid_server'],
      [{ user_id: '200002', server: 'eu' }, 1, 'account_ineligible'],
      [{ user_id: '200003', server: 'eu' }, 2, 'limit_exceeded'],
    ];
    for (const [formFields, quantity, code] of cases) {
      const refused = await w.checkout(p, { formFields, quantity });
      expect([
        code,
        refused.status,
        refused.body.code,
        refused.body.supplier_code,
        typeof refused.body.supplier_message,
      ]).toEqual([code, 422, 'topup_invalid', code, 'string']);
    }
    s.kit.faults.set('POST /topup/validate', {
      kind: 'validate_invalid',
      code: 'other',
      message: 'maintenance on that realm',
      times: 1,
    });
    const refused = await w.checkout(p, { formFields: { user_id: '100001', server: 'eu' } });
    expect([refused.status, refused.body.code, refused.body.supplier_code, refused.body.supplier_message]).toEqual([
      422,
      'topup_invalid',
      'other',
      'maintenance on that realm',
    ]);
    expect(refused.body.detail).toContain('maintenance on that realm');
    // a code outside the closed set reads as `other`
    s.kit.faults.set('POST /topup/validate', {
      kind: 'status',
      status: 200,
      body: { valid: false, code: 'weird_code', message: 'nope' },
      times: 1,
    });
    const odd = await w.checkout(p, { formFields: { user_id: '100001', server: 'eu' } });
    expect([odd.status, odd.body.supplier_code]).toEqual([422, 'other']);
    expect(calls(s.kit, 'POST /topup/validate').map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(supplierCalls(other.kit)).toEqual([]);
    expect((await w.health(s)).score).toBe(100);
  });

  it('timeout or 5xx: one attempt only, -2, and the next offer validates; with no other offer the checkout is refused', async () => {
    const p = await product();
    const first = await w.seller(p, 400);
    const second = await w.seller(p, 450);
    const fields = { user_id: '100001', server: 'eu' };
    first.kit.faults.set('POST /topup/validate', { kind: 'hang', times: 1 });
    const started = performance.now();
    const moved = await w.place(p, { formFields: fields });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(moved.items.map((i: any) => [i.offer_id, i.fulfilment.account_label])).toEqual([
      [second.offerId, 'Sandbox player 100001'],
    ]);
    expect(calls(first.kit, 'POST /topup/validate').map((r) => r.status)).toEqual([undefined]);
    expect((await w.health(first)).score).toBe(98);
    for (const status of [500, 503]) {
      first.kit.faults.set('POST /topup/validate', { kind: 'status', status, times: 1 });
      expect((await w.place(p, { formFields: fields })).items[0].offer_id).toBe(second.offerId);
    }
    expect(calls(first.kit, 'POST /topup/validate').map((r) => r.status)).toEqual([undefined, 500, 503]);
    expect((await w.health(first)).score).toBe(94);
    // each offer's validation has its own operation id: the one executed is the one that validated
    const [a, b] = calls(second.kit, 'POST /topup/validate')
      .slice(-1)
      .concat(calls(first.kit, 'POST /topup/validate').slice(-1));
    expect(bodyOf(a!).operation_id).not.toBe(bodyOf(b!).operation_id);

    second.kit.faults.set('POST /topup/validate', { kind: 'status', status: 502 });
    first.kit.faults.set('POST /topup/validate', { kind: 'hang' });
    const refused = await w.checkout(p, { formFields: fields });
    expect([refused.status, refused.body.code]).toEqual([409, 'out_of_stock']);
    expect([(await w.health(first)).score, (await w.health(second)).score]).toEqual([92, 98]);
    first.kit.faults.clear();
    second.kit.faults.clear();
  });

  it('an unexpected 4xx blocks the offer without a health penalty (only timeouts and 5xx cost points)', async () => {
    const p = await product();
    const s = await w.seller(p, 400);
    const next = await w.seller(p, 450);
    s.kit.setSecrets(['svcsec_ffffffffffffffffffffffffffffffff']);
    const moved = await w.place(p, { formFields: { user_id: '100001', server: 'eu' } });
    expect(moved.items[0].offer_id).toBe(next.offerId);
    expect(calls(s.kit, 'POST /topup/validate').map((r) => [r.status, r.signature])).toEqual([
      [401, 'signature_mismatch'],
    ]);
    expect((await w.health(s)).score).toBe(100);
  });
});
