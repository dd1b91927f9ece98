import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { eur } from './fixtures.js';

describe('GET /fees', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it('is the spec fee schedule: 8.5% per item with a 5-cent minimum, no other fee, 7-day holding, payouts from 20 EUR', async () => {
    const { api } = await svc.newSupplier();
    const fees = await api.get('/fees');
    expect(fees.status).toBe(200);
    expect(fees.headers.get('x-ratelimit-limit')).toBe('600');
    expect(fees.body).toEqual({
      version: '2026-01-01',
      effective_from: '2026-01-01T00:00:00.000Z',
      currency: 'EUR',
      commission: { rate_bps: 850, min_fee: eur(5), applies: 'per_order_item_on_gross_sale_price_rounded_half_up' },
      listing_fee: null,
      price_change_fee: null,
      payment_fees_charged_to_supplier: false,
      payment_fees_charged_to_buyer: false,
      settlement: { holding_period_days: 7, trigger: 'delivery' },
      payout: { methods: ['sepa_bank_transfer', 'paypal'], minimum: eur(2000), fee: null },
      unfulfilled_sale_fee: null,
      docs_url: `${svc.baseUrl}/docs`,
    });
    // version is a date, effective_from a timestamp on it
    expect(fees.body.effective_from.startsWith(fees.body.version)).toBe(true);
  });

  it('needs a token like every supplier read', async () => {
    const anonymous = await fetch(`${svc.baseUrl}/fees`);
    expect(anonymous.status).toBe(401);
  });
});
