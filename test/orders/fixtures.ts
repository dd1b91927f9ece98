import type pg from 'pg';
import { withAdminClient } from '../../src/db/admin-client.js';
import { expect } from 'vitest';
import type { Client } from '../support/http.js';
import type { TestService } from '../support/harness.js';

/** Shared set-up for the order and ledger tests: every step goes through the real API. */

export const eur = (amount: number) => ({ amount, currency: 'EUR' });

export type Supplier = Awaited<ReturnType<TestService['newSupplier']>>;

export const keys = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);

/** Creates an uploaded offer, uploads `values` as text keys, and (by default) activates it. */
export const uploadedOffer = async (
  supplier: Supplier,
  productId: string,
  options: { price: number; values?: string[]; externalRef?: string; activate?: boolean; lowStockThreshold?: number },
) => {
  const created = await supplier.api.post('/offers', {
    product_id: productId,
    stock_mode: 'uploaded',
    price: eur(options.price),
    external_ref: options.externalRef ?? `SKU-${options.price}`,
    ...(options.lowStockThreshold !== undefined && { low_stock_threshold: options.lowStockThreshold }),
  });
  expect(created.status, created.text).toBe(201);
  const offerId: string = created.body.id;
  let itemIds: string[] = [];
  const values = options.values ?? [];
  for (let i = 0; i < values.length; i += 1000) {
    const up = await supplier.api.post(`/offers/${offerId}/inventory`, {
      items: values.slice(i, i + 1000).map((value) => ({ kind: 'text', value })),
    });
    expect(up.status, up.text).toBe(201);
    itemIds = [...itemIds, ...up.body.item_ids];
  }
  if (options.activate ?? true) {
    const act = await supplier.api.post(`/offers/${offerId}/activate`);
    expect(act.status, act.text).toBe(200);
  }
  return { offerId, itemIds };
};

/** Checkout through the operator API; asserts 201. */
export const checkout = async (
  svc: TestService,
  items: { product_id: string; quantity: number }[],
  buyerCountry = 'DE',
) => {
  const res = await svc.operator.post('/orders', { items, buyer_country: buyerCountry });
  expect(res.status, res.text).toBe(201);
  return res.body;
};

/** Checkout and pay; asserts the order completed. */
export const buy = async (svc: TestService, items: { product_id: string; quantity: number }[], buyerCountry = 'DE') => {
  const placed = await checkout(svc, items, buyerCountry);
  const paid = await svc.operator.post(`/orders/${placed.id}/pay`);
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.status).toBe('completed');
  return paid.body;
};

export const stockOf = async (supplier: Supplier, offerId: string) => {
  const res = await supplier.api.get(`/offers/${offerId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.stock;
};

/** Inventory item ids of an offer in one status, walking every page. */
export const itemIdsWithStatus = async (api: Client, offerId: string, status: string): Promise<string[]> => {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await api.get(
      `/offers/${offerId}/inventory?status=${status}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    ids.push(...res.body.data.map((i: any) => i.id));
    cursor = res.body.next_cursor;
  } while (cursor);
  return ids;
};

/** Every page of a list endpoint, following next_cursor. */
export const allPages = async (api: Client, path: string): Promise<{ items: any[]; pages: number }> => {
  const items: any[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: any = await api.get(`${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    pages++;
    cursor = res.body.next_cursor;
  } while (cursor);
  return { items, pages };
};

/** A short-lived direct connection to the test database, for checks below the API. */
export const withDb = <T>(svc: TestService, work: (db: pg.Client) => Promise<T>): Promise<T> =>
  withAdminClient(svc.databaseUrl, work);

/** The spec's commission rule in BigInt, independent of src/domain/money.ts. */
export const specCommission = (gross: bigint): bigint => {
  const scaled = gross * 850n; // gross * 850 / 10000, rounded half up
  const q = scaled / 10000n;
  const rounded = (scaled % 10000n) * 2n >= 10000n ? q + 1n : q;
  return rounded > 5n ? rounded : 5n;
};

/** Log lines at warn level or above (a failed timer, an unhandled error): none is expected. */
export const troubles = (svc: TestService) =>
  svc.logs
    .filter((l) => Number(l.level) >= 40)
    .map((l) => `${String(l.msg)} ${JSON.stringify(l.err ?? l.timer ?? '')}`.slice(0, 300));
