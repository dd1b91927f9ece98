import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Client } from '../support/http.js';
import type { TestService } from '../support/harness.js';

export const eur = (amount: number) => ({ amount, currency: 'EUR' });

export type Supplier = Awaited<ReturnType<TestService['newSupplier']>>;

/** `hex(hmac_sha256(secret, timestamp + "." + raw_body))`, written here from the spec, not taken from src/crypto. */
export const v1 = (secret: string, timestamp: string, rawBody = '') =>
  createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}

export type HealthAnswer = 200 | 500 | 503 | 'hang' | 'drop' | 'not-ok-body';

/**
 * A supplier's fulfilment server on 127.0.0.1 (node:http, port 0). `/healthcheck` answers
 * what the test sets: 200 `{status: "ok"}`, a 5xx, nothing at all ('hang'), or a closed
 * socket ('drop'). For declared orders it holds reservations, accepts orders and hands
 * over `quantity` distinct text keys on the first poll.
 */
export const startFulfilment = async () => {
  let health: HealthAnswer = 200;
  const seen: SeenRequest[] = [];
  const quantities = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, raw });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/healthcheck' || req.url?.endsWith('/healthcheck')) {
        if (health === 'hang') return;
        if (health === 'drop') return void req.socket.destroy();
        if (health === 'not-ok-body') return send(200, { status: 'degraded' });
        return send(health, health === 200 ? { status: 'ok' } : { status: 'down' });
      }
      const body = raw ? JSON.parse(raw) : undefined;
      if (req.method === 'POST' && req.url === '/reservations') {
        quantities.set(body.reservation_id, body.quantity);
        return send(201, { reservation_id: body.reservation_id, expires_at: body.expires_at });
      }
      if (req.method === 'POST' && req.url === '/orders') {
        quantities.set(body.order_id, quantities.get(body.reservation_id) ?? body.quantity);
        return send(201, { order_id: body.order_id, status: 'accepted' });
      }
      const items = /^\/orders\/([^/]+)\/items$/.exec(req.url!);
      if (items && req.method === 'GET') {
        const n = quantities.get(items[1]!) ?? 1;
        return send(200, {
          order_id: items[1],
          status: 'ready',
          items: Array.from({ length: n }, (_, i) => ({ kind: 'text', value: `DECLARED-${items[1]}-${i}` })),
        });
      }
      send(404, { code: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    healthchecks: () => seen.filter((r) => r.path.endsWith('/healthcheck')),
    answer: (a: HealthAnswer) => void (health = a),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type Fulfilment = Awaited<ReturnType<typeof startFulfilment>>;

export const createUploaded = async (api: Client, productId: string, extra: Record<string, unknown> = {}) => {
  const res = await api.post('/offers', {
    product_id: productId,
    stock_mode: 'uploaded',
    price: eur(1000),
    external_ref: 'SKU-U',
    ...extra,
  });
  if (res.status !== 201) throw new Error(`offer not created: ${res.status} ${res.text}`);
  return res.body;
};

/** A new product's uploaded offer of this supplier: its id. */
export const freshUploadedOffer = async (svc: TestService, supplier: { api: Client }) =>
  (await createUploaded(supplier.api, (await svc.newProduct()).id)).id as string;

export const createDeclared = async (
  api: Client,
  productId: string,
  baseUrl: string,
  extra: Record<string, unknown> = {},
) => {
  const res = await api.post('/offers', {
    product_id: productId,
    stock_mode: 'declared',
    price: eur(1000),
    external_ref: 'SKU-D',
    fulfilment: { base_url: baseUrl },
    ...extra,
  });
  if (res.status !== 201) throw new Error(`offer not created: ${res.status} ${res.text}`);
  return res.body;
};

export const textKeys = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ kind: 'text', value: `${prefix}-${i}` }));

export const upload = async (api: Client, offerId: string, items: unknown[], mode?: 'strict' | 'partial') => {
  const res = await api.post(`/offers/${offerId}/inventory`, { ...(mode && { mode }), items });
  if (res.status !== 201) throw new Error(`upload refused: ${res.status} ${res.text}`);
  return res.body as { accepted: number; rejected: unknown[]; item_ids: string[]; stock_available: number };
};

/** The events of one stream, oldest first, as stored. */
export const streamEvents = async (svc: TestService, streamId: string) =>
  (
    await sql<{
      type: string;
      data: any;
      metadata: any;
    }>`select type, data, metadata from es_events where stream_id = ${streamId} order by position`.execute(
      svc.services.db,
    )
  ).rows;

/** Every event of one type, oldest first. */
export const eventsOfType = async (svc: TestService, type: string) =>
  (
    await sql<{
      stream_id: string;
      data: any;
      metadata: any;
    }>`select stream_id, data, metadata from es_events where type = ${type} order by position`.execute(svc.services.db)
  ).rows;

/** Sells `quantity` units of a product through the operator API: checkout, then payment. */
export const sell = async (svc: TestService, productId: string, quantity = 1) => {
  const placed = await svc.operator.post('/orders', {
    items: [{ product_id: productId, quantity }],
    buyer_country: 'DE',
  });
  if (placed.status !== 201) throw new Error(`order not placed: ${placed.status} ${placed.text}`);
  const paid = await svc.operator.post(`/orders/${placed.body.id}/pay`);
  if (paid.status !== 200) throw new Error(`order not paid: ${paid.status} ${paid.text}`);
  return paid.body;
};
