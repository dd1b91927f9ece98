import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultTable, GENERIC_KINDS } from './faults.js';
import { KitStore, newReceiptRef } from './state.js';
import type {
  KitFault,
  KitItem,
  KitOperation,
  KitOrder,
  KitRequest,
  KitRoute,
  SupplierKit,
  SupplierKitOptions,
  TopupAccount,
  TopupOutcome,
  ValidateCode,
} from './types.js';
import { DEFAULT_TOLERANCE_MS, verifySignature } from './verify.js';

/**
 * Built-in sandbox accounts (the spec's fixed `user_id` paths). 999999 has no account, so
 * validate answers `invalid_user_id`; 888888 validates and its execute ends `failed` /
 * `topup_failed` without any top-up; 100001 and 777777 top up cleanly (777777 is the one the
 * service retries after discarding the first answer: the retry is a replay).
 */
export const SANDBOX_ACCOUNTS: Readonly<Record<string, TopupAccount>> = {
  '100001': { label: 'Sandbox player 100001' },
  '777777': { label: 'Sandbox player 777777' },
  '888888': {
    label: 'Sandbox player 888888',
    failExecute: { code: 'topup_failed', message: 'the top-up could not be carried out' },
  },
};

const MAX_BODY_BYTES = 1024 * 1024;
const MALFORMED_BODY = '{"status": "ready", "items": [{"kind": "text", "value": ';

type Answer = { status: number; body: unknown } | { status: number; raw: string };

class BadRequest extends Error {}

type Json = Record<string, unknown>;

const str = (b: Json, key: string): string => {
  const v = b[key];
  if (typeof v !== 'string' || v === '') throw new BadRequest(`${key} must be a non-empty string`);
  return v;
};

const int = (b: Json, key: string): number => {
  const v = b[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new BadRequest(`${key} must be a positive integer`);
  return v;
};

const formFields = (b: Json): Record<string, string> => {
  const v = b.form_fields;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new BadRequest('form_fields must be an object of strings');
  for (const [k, x] of Object.entries(v))
    if (typeof x !== 'string') throw new BadRequest(`form_fields.${k} must be a string`);
  return v as Record<string, string>;
};

interface Matched {
  route: KitRoute;
  id: string;
}

const PATHS: { re: RegExp; routes: Partial<Record<string, KitRoute>> }[] = [
  { re: /^\/healthcheck$/, routes: { GET: 'GET /healthcheck' } },
  { re: /^\/reservations$/, routes: { POST: 'POST /reservations' } },
  { re: /^\/reservations\/([^/]+)$/, routes: { DELETE: 'DELETE /reservations/:id' } },
  { re: /^\/orders$/, routes: { POST: 'POST /orders' } },
  { re: /^\/orders\/([^/]+)\/items$/, routes: { GET: 'GET /orders/:id/items', DELETE: 'DELETE /orders/:id/items' } },
  { re: /^\/topup\/validate$/, routes: { POST: 'POST /topup/validate' } },
  { re: /^\/topup\/execute$/, routes: { POST: 'POST /topup/execute' } },
  { re: /^\/topup\/operations\/([^/]+)$/, routes: { GET: 'GET /topup/operations/:id' } },
];

const match = (method: string, path: string): Matched | { allowed: string[] } | null => {
  for (const p of PATHS) {
    const m = p.re.exec(path);
    if (!m) continue;
    const route = p.routes[method];
    if (!route) return { allowed: Object.keys(p.routes) };
    let id = '';
    try {
      id = m[1] === undefined ? '' : decodeURIComponent(m[1]);
    } catch {
      return null;
    }
    return { route, id };
  }
  return null;
};

const readBody = (req: IncomingMessage): Promise<Buffer | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * The reference supplier: both supplier-hosted contracts of the spec (declared stock and
 * top-up) on node:http, every call but `GET /healthcheck` signature-checked.
 */
// eslint-disable-next-line max-lines-per-function -- the reference kit's routes, one handler each
export const startSupplierKit = async (options: SupplierKitOptions): Promise<SupplierKit> => {
  if (!Array.isArray(options.secrets) || options.secrets.length === 0)
    throw new Error('secrets: at least one fulfilment secret');
  if (options.allocationDelayMs !== undefined && !(options.allocationDelayMs >= 0))
    throw new Error('allocationDelayMs must be >= 0');
  const now = options.now ?? Date.now;
  const toleranceMs = options.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  const maxReceived = options.maxReceived ?? 10_000;
  const blocked = new Set((options.blockedCountries ?? []).map((c) => c.toUpperCase()));
  const accounts: Record<string, TopupAccount> = {
    ...(options.sandboxAccounts === false ? {} : SANDBOX_ACCOUNTS),
    ...options.topupAccounts,
  };
  const store = new KitStore(options.stock);
  const state = store.state;
  const faults = new FaultTable();
  const received: KitRequest[] = [];
  let secrets = [...options.secrets];
  let seq = 0;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const open = new Set<ServerResponse>();
  const held = new Set(
    Object.values(state.reservations)
      .filter((r) => r.status === 'held')
      .map((r) => r.reservation_id),
  );

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  // ---- state transitions ----

  const expireReservations = (at: number) => {
    for (const id of held) {
      const r = state.reservations[id]!;
      if (r.expires_at_ms > at) continue;
      r.status = 'expired';
      store.give(r.pool, r.items);
      held.delete(id);
    }
  };

  const maybeReady = (o: KitOrder, at: number) => {
    if (o.status === 'allocating' && o.ready_at !== null && at >= o.ready_at) o.status = 'ready';
  };

  const settle = (op: KitOperation, outcome: TopupOutcome) => {
    if (outcome === 'completed') {
      op.status = 'completed';
      op.receipt_ref = newReceiptRef();
      op.executions += 1;
      state.topups_performed += 1;
      op.result = { operation_id: op.operation_id, status: 'completed', receipt_ref: op.receipt_ref };
    } else {
      op.status = 'failed';
      op.code = outcome.code;
      op.message = outcome.message;
      op.result = { operation_id: op.operation_id, status: 'failed', code: outcome.code, message: outcome.message };
    }
    delete op.settle_at;
    delete op.settle_outcome;
  };

  const maybeSettle = (op: KitOperation, at: number) => {
    if (op.status === 'processing' && op.settle_at !== undefined && op.settle_at !== null && at >= op.settle_at) {
      settle(op, op.settle_outcome ?? 'completed');
    }
  };

  const checkAccount = (
    fields: Record<string, string>,
    quantity: number,
  ): { account: TopupAccount } | { code: ValidateCode; message: string } => {
    const userId = fields.user_id;
    const account = userId === undefined ? undefined : accounts[userId];
    if (!account) return { code: 'invalid_user_id', message: 'no account with that ID' };
    if (account.servers && !account.servers.includes(fields.server ?? ''))
      return { code: 'invalid_server', message: 'server does not exist or does not accept top-ups' };
    if (account.eligible === false)
      return { code: 'account_ineligible', message: 'account cannot receive this top-up' };
    if (account.maxQuantity !== undefined && quantity > account.maxQuantity) {
      return { code: 'limit_exceeded', message: `at most ${account.maxQuantity} per top-up for this account` };
    }
    return { account };
  };

  // ---- handlers: each returns its answer; `use` counts the route's specific fault as applied ----

  type Handler = (id: string, body: Json, at: number, fault: KitFault | undefined, use: () => void) => Answer;

  const handlers: Record<KitRoute, Handler> = {
    'GET /healthcheck': () => ({ status: 200, body: { status: 'ok' } }),

    'POST /reservations': (_id, b, at) => {
      const reservationId = str(b, 'reservation_id');
      const offerId = str(b, 'offer_id');
      const externalRef = str(b, 'external_ref');
      const productId = str(b, 'product_id');
      const quantity = int(b, 'quantity');
      const country = str(b, 'buyer_country');
      const expiresAt = str(b, 'expires_at');
      const existing = state.reservations[reservationId];
      if (existing && (existing.status === 'held' || existing.status === 'ordered'))
        return { status: 200, body: existing.response };
      if (blocked.has(country.toUpperCase())) return { status: 409, body: { code: 'region_blocked' } };
      const expiresMs = Date.parse(expiresAt);
      if (Number.isNaN(expiresMs)) throw new BadRequest('expires_at must be a timestamp');
      if (expiresMs <= at) throw new BadRequest('expires_at is in the past');
      const taken = store.take(externalRef, quantity);
      if (!taken) return { status: 409, body: { code: 'out_of_stock' } };
      const response = { reservation_id: reservationId, expires_at: expiresAt };
      state.reservations[reservationId] = {
        reservation_id: reservationId,
        offer_id: offerId,
        external_ref: externalRef,
        product_id: productId,
        quantity,
        buyer_country: country,
        expires_at: expiresAt,
        expires_at_ms: expiresMs,
        status: 'held',
        pool: taken.pool,
        items: taken.items,
        response,
      };
      held.add(reservationId);
      return { status: 201, body: response };
    },

    'DELETE /reservations/:id': (id) => {
      const r = state.reservations[id];
      if (!r || r.status !== 'held') return { status: 200, body: { reservation_id: id, released: 0 } };
      r.status = 'released';
      store.give(r.pool, r.items);
      held.delete(id);
      return { status: 200, body: { reservation_id: id, released: r.quantity } };
    },

    'POST /orders': (_id, b, at, fault, use) => {
      const orderId = str(b, 'order_id');
      const reservationId = str(b, 'reservation_id');
      const offerId = str(b, 'offer_id');
      const externalRef = str(b, 'external_ref');
      const quantity = int(b, 'quantity');
      const country = str(b, 'buyer_country');
      if (typeof b.unit_price !== 'object' || b.unit_price === null)
        throw new BadRequest('unit_price must be a Money object');
      const existing = state.orders[orderId];
      if (existing) return { status: 409, body: existing.response };
      const expired = { status: 410, body: { code: 'reservation_expired' } };
      if (state.cancelled_orders.includes(orderId)) return expired;
      const r = state.reservations[reservationId];
      if (fault?.kind === 'reservation_expired') {
        use();
        if (r && r.status === 'held') r.expires_at_ms = at; // expires now; released just below
        expireReservations(at);
        return expired;
      }
      if (!r || r.status === 'released' || r.status === 'expired') return expired;
      if (r.status === 'ordered')
        return {
          status: 422,
          body: {
            code: 'reservation_already_ordered',
            message: `reservation ${reservationId} belongs to order ${r.order_id}`,
          },
        };
      if (quantity !== r.quantity)
        return { status: 422, body: { code: 'quantity_mismatch', message: `the reservation holds ${r.quantity}` } };
      const pendingStock = fault?.kind === 'pending_stock';
      if (pendingStock) use();
      const response = { order_id: orderId, status: pendingStock ? ('pending_stock' as const) : ('accepted' as const) };
      state.orders[orderId] = {
        order_id: orderId,
        reservation_id: reservationId,
        offer_id: offerId,
        external_ref: externalRef,
        quantity,
        unit_price: b.unit_price,
        buyer_country: country,
        accepted_at: at,
        ready_at: options.manualAllocation ? null : at + (options.allocationDelayMs ?? 0),
        status: 'allocating',
        pool: r.pool,
        items: r.items,
        polls: 0,
        response_status: pendingStock ? 202 : 201,
        response,
      };
      r.status = 'ordered';
      r.order_id = orderId;
      held.delete(reservationId);
      return { status: pendingStock ? 202 : 201, body: response };
    },

    'GET /orders/:id/items': (id, _b, at, fault, use) => {
      const o = state.orders[id];
      if (!o)
        return state.cancelled_orders.includes(id)
          ? { status: 410, body: { code: 'order_cancelled' } }
          : { status: 404, body: { code: 'not_found' } };
      if (o.status === 'returned') return { status: 410, body: { code: 'order_cancelled' } };
      maybeReady(o, at);
      o.polls += 1;
      const pending = { status: 200, body: { order_id: id, status: 'pending', items: [] } };
      if (fault?.kind === 'stay_pending') {
        use();
        return pending;
      }
      if (o.status !== 'ready') return pending;
      let items: KitItem[] = o.items;
      if (fault?.kind === 'wrong_count') {
        use();
        const count = Math.max(0, o.quantity + (fault.delta ?? 1));
        items = Array.from(
          { length: count },
          (_, i): KitItem => o.items[i] ?? { kind: 'text', value: `KIT-EXTRA-${i + 1}` },
        );
      }
      return { status: 200, body: { order_id: id, status: 'ready', items } };
    },

    'DELETE /orders/:id/items': (id) => {
      if (options.supportsItemReturn === false) return { status: 405, body: { code: 'not_supported' } };
      const o = state.orders[id];
      if (!o) {
        if (!state.cancelled_orders.includes(id)) state.cancelled_orders.push(id);
        return { status: 200, body: { order_id: id, returned: 0 } };
      }
      if (o.status !== 'returned') {
        store.give(o.pool, o.items);
        o.returned = o.items.length;
        o.status = 'returned';
      }
      return { status: 200, body: { order_id: id, returned: o.returned ?? 0 } };
    },

    'POST /topup/validate': (_id, b, _at, fault, use) => {
      const operationId = str(b, 'operation_id');
      str(b, 'offer_id');
      str(b, 'external_ref');
      str(b, 'product_id');
      str(b, 'buyer_country');
      const quantity = int(b, 'quantity');
      const fields = formFields(b);
      if (fault?.kind === 'validate_invalid') {
        use();
        return {
          status: 200,
          body: {
            operation_id: operationId,
            valid: false,
            code: fault.code,
            message: fault.message ?? 'refused by the supplier',
          },
        };
      }
      const check = checkAccount(fields, quantity);
      if ('code' in check)
        return {
          status: 200,
          body: { operation_id: operationId, valid: false, code: check.code, message: check.message },
        };
      return { status: 200, body: { operation_id: operationId, valid: true, account_label: check.account.label } };
    },

    'POST /topup/execute': (_id, b, at, fault, use) => {
      const operationId = str(b, 'operation_id');
      const orderId = str(b, 'order_id');
      const offerId = str(b, 'offer_id');
      const externalRef = str(b, 'external_ref');
      const quantity = int(b, 'quantity');
      const fields = formFields(b);
      const existing = state.operations[operationId];
      if (existing) {
        existing.calls += 1;
        maybeSettle(existing, at);
        if (existing.status === 'processing')
          return { status: 202, body: { operation_id: operationId, status: 'processing' } };
        return { status: 200, body: existing.result };
      }
      const op: KitOperation = {
        operation_id: operationId,
        order_id: orderId,
        offer_id: offerId,
        external_ref: externalRef,
        quantity,
        form_fields: fields,
        status: 'processing',
        executions: 0,
        calls: 1,
        result_status: 201,
        result: {},
      };
      state.operations[operationId] = op;
      if (fault?.kind === 'topup_failed') {
        use();
        settle(op, {
          code: fault.code ?? 'topup_failed',
          message: fault.message ?? 'the top-up could not be carried out',
        });
        op.result_status = fault.status ?? 201;
        return { status: op.result_status, body: op.result };
      }
      if (fault?.kind === 'topup_processing') {
        use();
        op.result_status = 202;
        op.result = { operation_id: operationId, status: 'processing' };
        op.settle_at = fault.settleAfterMs === undefined ? null : at + fault.settleAfterMs;
        op.settle_outcome = fault.outcome ?? 'completed';
        maybeSettle(op, at);
        return { status: 202, body: { operation_id: operationId, status: 'processing' } };
      }
      const check = checkAccount(fields, quantity);
      if ('code' in check) settle(op, { code: check.code, message: check.message });
      else if (check.account.failExecute) settle(op, check.account.failExecute);
      else settle(op, 'completed');
      return { status: 201, body: op.result };
    },

    'GET /topup/operations/:id': (id, _b, at) => {
      const op = state.operations[id];
      if (!op) return { status: 404, body: { code: 'not_found' } };
      maybeSettle(op, at);
      if (op.status === 'processing') return { status: 200, body: { operation_id: id, status: 'processing' } };
      return { status: 200, body: op.result };
    },
  };

  const readOnly = new Set<KitRoute>(['GET /healthcheck', 'POST /topup/validate']);

  const runHandler = (m: Matched, body: Json, fault: KitFault | undefined, use: () => void): Answer => {
    const at = now();
    try {
      // time-based expiry, skipped on the side-effect-free routes
      if (!readOnly.has(m.route)) expireReservations(at);
      return handlers[m.route](m.id, body, at, fault, use);
    } catch (error) {
      if (error instanceof BadRequest)
        return { status: 422, body: { code: 'invalid_request', message: error.message } };
      throw error;
    } finally {
      if (!readOnly.has(m.route)) store.save();
    }
  };

  // ---- HTTP ----

  const send = (res: ServerResponse, rec: KitRequest | null, answer: Answer, headers: Record<string, string> = {}) => {
    open.delete(res);
    if (rec) {
      rec.status = answer.status;
      options.onRequest?.(rec);
    }
    if (closed || res.destroyed) return;
    const payload = 'raw' in answer ? answer.raw : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      ...headers,
    });
    res.end(payload);
  };

  // eslint-disable-next-line max-lines-per-function -- the reference kit's request dispatcher, one case per route
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    const text = raw === null ? '' : raw.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const m = match(method, path);
    const single = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    };
    const rec: KitRequest = {
      seq: ++seq,
      at: now(),
      method,
      path,
      route: m && 'route' in m ? m.route : null,
      headers: req.headers,
      offerId: single('x-svc-offer-id'),
      userAgent: single('user-agent'),
      rawBody: text,
      body: parsed,
      signature: 'skipped',
    };
    received.push(rec);
    if (received.length > maxReceived) received.splice(0, received.length - maxReceived);

    if (raw === null) return send(res, rec, { status: 413, body: { code: 'payload_too_large' } });
    if (m === null) return send(res, rec, { status: 404, body: { code: 'not_found' } });
    if (!('route' in m))
      return send(res, rec, { status: 405, body: { code: 'method_not_allowed' } }, { allow: m.allowed.join(', ') });

    if (m.route !== 'GET /healthcheck') {
      const verdict = verifySignature(raw, req.headers, secrets, { toleranceMs, now });
      rec.signature = verdict.ok ? 'ok' : verdict.reason;
      if (!verdict.ok)
        return send(res, rec, { status: 401, body: { code: 'invalid_signature', message: verdict.reason } });
      if (options.offerId !== undefined && rec.offerId !== options.offerId) {
        return send(res, rec, {
          status: 403,
          body: { code: 'unknown_offer', message: `X-SVC-Offer-Id is not ${options.offerId}` },
        });
      }
    }
    let body: Json = {};
    if (method === 'POST') {
      if (text !== '' && parsed === undefined) return send(res, rec, { status: 400, body: { code: 'invalid_json' } });
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return send(res, rec, {
          status: 422,
          body: { code: 'invalid_request', message: 'the body must be a JSON object' },
        });
      }
      body = parsed as Json;
    }

    const fault = faults.peek(m.route, [
      'delay',
      'status',
      'hang',
      'malformed',
      'wrong_count',
      'stay_pending',
      'pending_stock',
      'reservation_expired',
      'validate_invalid',
      'topup_failed',
      'topup_processing',
    ]);
    if (fault && GENERIC_KINDS.includes(fault.kind)) {
      faults.use(m.route);
      if (fault.delayMs) await sleep(fault.delayMs);
      const processFirst = 'process' in fault && fault.process === true;
      switch (fault.kind) {
        case 'delay':
          await sleep(fault.ms);
          return send(
            res,
            rec,
            runHandler(m, body, undefined, () => {}),
          );
        case 'status':
          if (processFirst) runHandler(m, body, undefined, () => {});
          return send(res, rec, {
            status: fault.status,
            body: fault.body === undefined ? { code: 'fault_injected' } : fault.body,
          });
        case 'malformed':
          if (processFirst) runHandler(m, body, undefined, () => {});
          return send(res, rec, { status: fault.status ?? 200, raw: MALFORMED_BODY });
        case 'hang':
          if (processFirst) runHandler(m, body, undefined, () => {});
          return; // kept in `open`, destroyed by close()
      }
    }
    let used = false;
    const answer = runHandler(m, body, fault, () => {
      if (used) return;
      used = true;
      faults.use(m.route);
    });
    if (used && fault?.delayMs) await sleep(fault.delayMs);
    send(res, rec, answer);
  };

  const server = http.createServer((req, res) => {
    open.add(res);
    handle(req, res).catch(() => {
      send(res, null, { status: 500, body: { code: 'internal_error' } });
    });
  });
  server.keepAliveTimeout = 5_000;

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
  const host = options.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    state,
    faults,
    received,
    markReady(orderId) {
      const o = state.orders[orderId];
      if (!o) throw new Error(`no order ${orderId}`);
      if (o.status === 'returned') throw new Error(`order ${orderId} was returned; its keys are withheld`);
      o.status = 'ready';
      store.save();
    },
    settleOperation(operationId, outcome = 'completed') {
      const op = state.operations[operationId];
      if (!op) throw new Error(`no operation ${operationId}`);
      if (op.status !== 'processing') throw new Error(`operation ${operationId} is already ${op.status}`);
      settle(op, outcome);
      store.save();
    },
    setSecrets(next) {
      if (next.length === 0) throw new Error('secrets: at least one fulfilment secret');
      secrets = [...next];
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const res of open) res.destroy();
      open.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
};
