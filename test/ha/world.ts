import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { type Answer, request } from '../support/http.js';
import type { Keyed, Target } from './traffic.js';

const run = promisify(execFile);

/** A supplier with limits raised for load, one product, and an uploaded offer with `keys` keys. */
export const setUpSeller = async (origin: string, operatorToken: string, keys: number): Promise<Target> => {
  const op = (method: string, path: string, body?: unknown) =>
    request(origin, method, `/operator/v1${path}`, { token: operatorToken, body });
  const made = await op('POST', '/suppliers', { name: 'Failover Keys Ltd' });
  expect(made.status).toBe(201);
  const supplierToken = made.body.token as string;
  const supplierId = made.body.supplier.id as string;
  const limits = await op('PUT', `/suppliers/${supplierId}/rate-limits`, {
    reads: 100_000,
    writes: 100_000,
    bulk: 1_000,
    test: 100_000,
    per_supplier: 1_000_000,
  });
  expect(limits.status).toBe(200);
  const product = await op('POST', '/products', {
    name: 'Failover Edition',
    type: 'game_key',
    platform: 'pc',
    region: 'EU',
    status: 'sellable',
  });
  expect(product.status).toBe(201);
  const api = (method: string, path: string, body?: unknown) =>
    request(origin, method, `/api/v1${path}`, { token: supplierToken, body });
  const offer = await api('POST', '/offers', {
    product_id: product.body.id,
    stock_mode: 'uploaded',
    price: { amount: 1000, currency: 'EUR' },
    external_ref: 'HA-1',
  });
  expect(offer.status).toBe(201);
  for (let from = 0; from < keys; from += 1000) {
    const items = Array.from({ length: Math.min(1000, keys - from) }, (_, i) => ({
      kind: 'text',
      value: `HA-KEY-${String(from + i).padStart(6, '0')}`,
    }));
    const uploaded = await api('POST', `/offers/${offer.body.id}/inventory`, { items });
    expect(uploaded.status).toBe(201);
  }
  expect((await api('POST', `/offers/${offer.body.id}/activate`)).status).toBe(200);
  return { origins: [origin], supplierToken, operatorToken, offerId: offer.body.id, productId: product.body.id };
};

/** Every order of the supplier, through the API's pages. */
export const allOrders = async (origin: string, token: string) => {
  const orders: { id: string; status: string; items: { fulfilment: { inventory_item_ids: string[] } }[] }[] = [];
  let cursor: string | null = null;
  do {
    const page: Answer = await request(origin, 'GET', `/api/v1/orders?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      token,
    });
    expect(page.status).toBe(200);
    orders.push(...page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor);
  return orders;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a failure may never cost: every key answered, every acknowledged order there in its
 * final state, no key that made two orders, no inventory key delivered twice, and the ledger
 * audit and chain verification clean.
 */
export const expectNothingLost = async (t: Target, keys: Keyed[], env: Record<string, string>) => {
  const unanswered = keys.filter((k) => k.ackAt === undefined);
  expect(unanswered.map((k) => ({ key: k.key, refused: k.refused, attempts: k.attempts.slice(-3) }))).toEqual([]);
  const acknowledged = new Map(keys.map((k) => [k.orderId!, k]));
  expect(acknowledged.size).toBe(keys.length); // no two keys answered with one order
  // the read models may still be applying the last orders: wait until every one is there
  let orders = await allOrders(t.origins[0]!, t.supplierToken);
  for (let i = 0; i < 100 && orders.filter((o) => o.status === 'completed').length < keys.length; i++) {
    await sleep(300);
    orders = await allOrders(t.origins[0]!, t.supplierToken);
  }
  // every order there is one a key was answered with, and each is completed
  expect(orders.filter((o) => !acknowledged.has(o.id)).map((o) => o.id)).toEqual([]);
  expect(orders.filter((o) => o.status !== 'completed').map((o) => [o.id, o.status])).toEqual([]);
  expect(orders.length).toBe(keys.length);
  const delivered = orders.flatMap((o) => o.items.flatMap((i) => i.fulfilment.inventory_item_ids));
  expect(delivered.length).toBe(keys.length);
  expect(new Set(delivered).size).toBe(delivered.length);
  for (const command of [
    ['ledger', 'audit'],
    ['ledger', 'verify'],
  ]) {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...command], {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      maxBuffer: 16 << 20,
    });
    expect(stdout).not.toMatch(/BROKEN|DIFFER|MISMATCH/);
  }
};
