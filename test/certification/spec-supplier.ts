import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A declared-stock supplier written from the spec's text alone (Supplier-hosted contract:
 * declared stock; Authentication point 4), sharing no code with the reference kit. Two
 * switches break it on purpose: `verifySignatures: false` accepts any signature, and
 * `unlimited: true` never answers out_of_stock.
 */
export interface SpecSupplierOptions {
  secret: string;
  now: () => number;
  stock: number;
  verifySignatures?: boolean;
  unlimited?: boolean;
}

type Json = Record<string, any>;

export const startSpecSupplier = async (options: SpecSupplierOptions) => {
  let stock = options.stock;
  let secret = options.secret;
  const reservations = new Map<
    string,
    { body: Json; answer: Json; quantity: number; expiresAt: number; ordered: boolean }
  >();
  const orders = new Map<
    string,
    { status: number; answer: Json; quantity: number; items: Json[]; returned: boolean }
  >();
  let keySeq = 0;

  const signed = (req: IncomingMessage, raw: string) => {
    if (options.verifySignatures === false) return true;
    const ts = String(req.headers['x-svc-timestamp'] ?? '');
    if (!/^\d+$/.test(ts) || Math.abs(options.now() - Number(ts)) > 300_000) return false;
    const expected = createHmac('sha256', secret).update(`${ts}.${raw}`).digest();
    return String(req.headers['x-svc-signature'] ?? '')
      .split(',')
      .map((p) => p.trim().split('='))
      .filter(([scheme, value]) => scheme === 'v1' && /^[0-9a-f]{64}$/.test(value ?? ''))
      .some(([, value]) => timingSafeEqual(Buffer.from(value!, 'hex'), expected));
  };

  const expire = () => {
    for (const r of reservations.values())
      if (!r.ordered && r.expiresAt <= options.now() && r.quantity > 0) {
        stock += r.quantity;
        r.quantity = 0;
      }
  };

  const route = (method: string, path: string, body: Json): [number, Json] => {
    expire();
    if (method === 'POST' && path === '/reservations') {
      const held = reservations.get(body.reservation_id);
      if (held) return [200, held.answer];
      if (!options.unlimited && body.quantity > stock) return [409, { code: 'out_of_stock' }];
      if (!options.unlimited) stock -= body.quantity;
      const answer = { reservation_id: body.reservation_id, expires_at: body.expires_at };
      reservations.set(body.reservation_id, {
        body,
        answer,
        quantity: body.quantity,
        expiresAt: Date.parse(body.expires_at),
        ordered: false,
      });
      return [201, answer];
    }
    const early = /^\/reservations\/([^/]+)$/.exec(path);
    if (early && method === 'DELETE') {
      const r = reservations.get(early[1]!);
      const released = r && !r.ordered ? r.quantity : 0;
      if (r && !r.ordered) {
        stock += r.quantity;
        r.quantity = 0;
      }
      return [200, { reservation_id: early[1], released }];
    }
    if (method === 'POST' && path === '/orders') {
      const seen = orders.get(body.order_id);
      if (seen) return [409, seen.answer];
      const r = reservations.get(body.reservation_id);
      if (!r || r.ordered || r.quantity === 0) return [410, { code: 'reservation_expired' }];
      r.ordered = true;
      const items = Array.from({ length: body.quantity }, () => ({ kind: 'text', value: `SPEC-KEY-${++keySeq}` }));
      const answer = { order_id: body.order_id, status: 'accepted' };
      orders.set(body.order_id, { status: 201, answer, quantity: body.quantity, items, returned: false });
      return [201, answer];
    }
    const items = /^\/orders\/([^/]+)\/items$/.exec(path);
    if (items && method === 'GET') {
      const o = orders.get(items[1]!);
      if (!o) return [404, { code: 'not_found' }];
      if (o.returned) return [410, { code: 'order_cancelled' }];
      return [200, { order_id: items[1], status: 'ready', items: o.items }];
    }
    if (items && method === 'DELETE') {
      const o = orders.get(items[1]!);
      if (o && !o.returned) {
        o.returned = true;
        stock += o.quantity;
      }
      return [200, { order_id: items[1], returned: o?.quantity ?? 0 }];
    }
    return [404, { code: 'not_found' }];
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      const reply = (status: number, body: Json) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && path === '/healthcheck') return reply(200, { status: 'ok' });
      if (!signed(req, raw)) return reply(401, { code: 'invalid_signature' });
      const [status, body] = route(req.method ?? 'GET', path, raw ? JSON.parse(raw) : {});
      reply(status, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stock: () => stock,
    /** The offer's secret is known only once the offer exists. */
    setSecret: (next: string) => {
      secret = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
