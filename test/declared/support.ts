import { expect } from 'vitest';
import type { SupplierTimeouts } from '../../src/outbound/supplier-timeouts.js';
import {
  startSupplierKit,
  type KitRequest,
  type KitRoute,
  type SupplierKit,
  type SupplierKitOptions,
} from '../../src/sdk/kit/index.js';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * The declared-stock and top-up tests: the service on a real socket with a test clock,
 * and one reference supplier kit per seller as the real peer over real HTTP. The kit reads
 * the service's clock, so reservation expiry and signature tolerance follow the test.
 */

export const eur = (amount: number) => ({ amount, currency: 'EUR' });
export type Api = Awaited<ReturnType<TestService['newSupplier']>>['api'];

export interface Seller {
  kit: SupplierKit;
  api: Api;
  supplierId: string;
  offerId: string;
  externalRef: string;
  /** The fulfilment secret the creation answer showed once. */
  secret: string;
}

/** A top-up product's form: a six-digit player id, as the sandbox paths expect. */
export const PLAYER_FORM = [
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
];

const unlimited = 1_000_000;

export const startWorld = async (supplierTimeouts: Partial<SupplierTimeouts> = {}) => {
  const svc = await startTestService({
    supplierTimeouts,
    limits: {
      reads: unlimited,
      writes: unlimited,
      sync: unlimited,
      test: unlimited,
      per_supplier: unlimited,
      operator: unlimited,
    },
  });
  const kits: SupplierKit[] = [];
  let n = 0;

  /** A supplier with an active declared offer on `productId`, served by its own kit. */
  const seller = async (
    productId: string,
    price: number,
    options: Partial<SupplierKitOptions> & { declaredStock?: number } = {},
  ): Promise<Seller> => {
    const { declaredStock = 10, ...kitOptions } = options;
    const kit = await startSupplierKit({
      secrets: ['svcsec_00000000000000000000000000000000'],
      now: () => svc.clock.now().getTime(),
      ...kitOptions,
    });
    kits.push(kit);
    const ref = ++n;
    const name = `Seller ${ref}`;
    const supplier = await svc.newSupplier(name);
    const offer = await supplier.api.post('/offers', {
      product_id: productId,
      stock_mode: 'declared',
      price: eur(price),
      external_ref: `SKU-${ref}`,
      fulfilment: { base_url: kit.url },
      declared_stock: declaredStock,
    });
    expect(offer.status, offer.text).toBe(201);
    expect(offer.body.fulfilment.secret).toMatch(/^svcsec_[0-9a-f]{32}$/);
    kit.setSecrets([offer.body.fulfilment.secret]);
    const activated = await supplier.api.post(`/offers/${offer.body.id}/activate`);
    expect(activated.status, activated.text).toBe(200);
    return {
      kit,
      api: supplier.api,
      supplierId: supplier.id,
      offerId: offer.body.id,
      externalRef: `SKU-${ref}`,
      secret: offer.body.fulfilment.secret,
    };
  };

  const gameKey = async () => (await svc.newProduct()).id as string;
  const topupProduct = async () => (await svc.newProduct({ type: 'topup', form_fields: PLAYER_FORM })).id as string;

  /** Checkout through the operator (storefront) API. */
  const checkout = (
    productId: string,
    options: { quantity?: number; country?: string; formFields?: Record<string, string> } = {},
  ) =>
    svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: options.quantity ?? 1 }],
      buyer_country: options.country ?? 'DE',
      ...(options.formFields && { form_fields: options.formFields }),
    });
  const place = async (productId: string, options: Parameters<typeof checkout>[1] = {}) => {
    const placed = await checkout(productId, options);
    expect(placed.status, placed.text).toBe(201);
    return placed.body;
  };
  /** Payment authorized, then the due work (POST /orders and the first poll, or execute) runs. */
  const pay = async (orderId: string) => {
    const paid = await svc.operator.post(`/orders/${orderId}/pay`);
    expect(paid.status, paid.text).toBe(200);
    await svc.drain();
    return paid.body;
  };
  const order = async (orderId: string) => (await svc.operator.get(`/orders/${orderId}`)).body;
  const offer = async (s: Seller) => (await s.api.get(`/offers/${s.offerId}`)).body;
  const health = async (s: Seller) => (await offer(s)).health;
  const keys = async (orderId: string) => (await svc.operator.get(`/orders/${orderId}/deliverables`)).body.items;
  /** The types of the order's ledger entries, in name order. */
  const entryTypes = async (orderId: string) =>
    (
      await svc.services.db
        .selectFrom('balance_entries')
        .select('type')
        .where('order_id', '=', orderId)
        .orderBy('type')
        .execute()
    ).map((e) => e.type);
  const events = async (streamId: string, type?: string) => {
    let q = svc.services.db
      .selectFrom('es_events' as any)
      .select(['type', 'data'] as any)
      .where('stream_id' as any, '=', streamId);
    if (type) q = q.where('type' as any, '=', type);
    return (await q.orderBy('stream_revision' as any).execute()) as { type: string; data: any }[];
  };

  /** Tear-down check: no request answered 500 and no timer handler threw. */
  const expectNoServerErrors = () => {
    const bad = svc.logs.filter(
      (l) =>
        l.msg === 'unhandled error' ||
        l.msg === 'timer failed; retrying later' ||
        ((l.res as any)?.statusCode ?? 0) >= 500,
    );
    expect(bad.map((l) => `${l.msg}: ${JSON.stringify((l.err as any)?.message ?? (l.timer as any) ?? '')}`)).toEqual(
      [],
    );
  };

  const stop = async () => {
    await svc.stop();
    await Promise.all(kits.map((k) => k.close()));
  };

  return {
    svc,
    kits,
    seller,
    gameKey,
    topupProduct,
    checkout,
    place,
    pay,
    order,
    offer,
    health,
    keys,
    entryTypes,
    events,
    expectNoServerErrors,
    stop,
  };
};

export type World = Awaited<ReturnType<typeof startWorld>>;

/** The requests one route of the kit received. */
export const calls = (kit: SupplierKit, route: KitRoute): KitRequest[] => kit.received.filter((r) => r.route === route);
/** Seconds between each call of `route` and `from` (kit clock, i.e. the service's test clock). */
export const secondsAfter = (from: number, requests: KitRequest[]) => requests.map((r) => (r.at - from) / 1000);
export const bodyOf = <T = Record<string, any>>(r: KitRequest) => r.body as T;
