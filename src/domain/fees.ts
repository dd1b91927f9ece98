import { COMMISSION_MIN_FEE, COMMISSION_RATE_BPS, eur } from './money.js';

/** The fee schedule `GET /fees` answers: one schedule, the spec's numbers. */
export const feeSchedule = (docsUrl: string) => ({
  version: '2026-01-01',
  effective_from: '2026-01-01T00:00:00.000Z',
  currency: 'EUR' as const,
  commission: {
    rate_bps: COMMISSION_RATE_BPS,
    min_fee: eur(COMMISSION_MIN_FEE),
    applies: 'per_order_item_on_gross_sale_price_rounded_half_up',
  },
  listing_fee: null,
  price_change_fee: null,
  payment_fees_charged_to_supplier: false,
  payment_fees_charged_to_buyer: false,
  settlement: { holding_period_days: 7, trigger: 'delivery' },
  payout: { methods: ['sepa_bank_transfer', 'paypal'], minimum: eur(2000), fee: null },
  unfulfilled_sale_fee: null,
  docs_url: docsUrl,
});
