import { RESERVATION_TTL_MS } from '../domain/contract-timings.js';
import {
  type CertificationRun,
  type Check,
  demand,
  EXPIRY_GRACE_MS,
  healthcheckCheck,
  isObject,
  OVER_STOCK_QUANTITY,
  refusedSignature,
  sameJson,
  SHORT_RESERVATION_MS,
  show,
} from './certification-run.js';
import { itemsAnswerBytes } from './answer-limits.js';

/**
 * The declared-stock contract, check by check, against the supplier's endpoints. The ids
 * are fresh ones (`cert-` + ULID), so nothing collides with a real checkout, and the service
 * records no order, ledger entry or health outcome for any of it.
 */

const ORDER_QUANTITY = 2;
/** The items answer carries files: its limit is the order's quantity of the largest items. */
const itemsLimit = { maxAnswerBytes: itemsAnswerBytes(ORDER_QUANTITY) };
const BUYER_COUNTRY = 'DE';

// eslint-disable-next-line max-lines-per-function -- the certification checks in the spec's order
export const runDeclaredChecks = async (run: CertificationRun) => {
  const { target, deps } = run;
  const t = deps.timeouts;
  const id = () => `cert-${deps.newId()}`;
  const reservationBody = (reservationId: string, quantity: number, expiresAt: Date) => ({
    reservation_id: reservationId,
    offer_id: target.endpoint.offerId,
    external_ref: target.externalRef,
    product_id: target.productId,
    quantity,
    buyer_country: BUYER_COUNTRY,
    expires_at: expiresAt.toISOString(),
  });
  const orderBody = (orderId: string, reservationId: string, quantity: number) => ({
    order_id: orderId,
    reservation_id: reservationId,
    offer_id: target.endpoint.offerId,
    external_ref: target.externalRef,
    quantity,
    unit_price: { amount: target.unitPrice, currency: 'EUR' },
    buyer_country: BUYER_COUNTRY,
  });
  const inFifteenMinutes = () => new Date(deps.clock.now().getTime() + RESERVATION_TTL_MS);
  /** Gives back what a check held by mistake (an accepted wrong signature, an impossible reservation). */
  const release = (c: Check, reservationId: string) =>
    c.call('DELETE', `/reservations/${reservationId}`, undefined, t.reservationMs);

  await healthcheckCheck(run);

  await run.check(
    'signature_rejected',
    'POST /reservations signed with a wrong secret is refused (4xx, e.g. 401)',
    async (c) => {
      const reservationId = id();
      const res = await c.answer(
        'POST',
        '/reservations',
        reservationBody(reservationId, 1, inFifteenMinutes()),
        t.reservationMs,
        { wrongSecret: true },
      );
      if (res.status >= 200 && res.status < 300) await release(c, reservationId);
      refusedSignature(res);
    },
  );

  const reservationId = id();
  const reservation = reservationBody(reservationId, ORDER_QUANTITY, inFifteenMinutes());
  const held = await run.check(
    'reservation',
    `POST /reservations for ${ORDER_QUANTITY} answers 201 {reservation_id, expires_at}`,
    async (c) => {
      const res = await c.answer('POST', '/reservations', reservation, t.reservationMs);
      demand(res.status === 201, `HTTP ${res.status} ${show(res.body)}, expected 201`);
      demand(
        isObject(res.body) && res.body.reservation_id === reservationId,
        `body ${show(res.body)} does not echo reservation_id`,
      );
      demand(
        typeof res.body.expires_at === 'string' && !Number.isNaN(Date.parse(res.body.expires_at)),
        `body ${show(res.body)} has no expires_at timestamp`,
      );
      return res.body;
    },
  );

  await run.check(
    'reservation_replay',
    'the same POST /reservations again answers 200 with the same body (idempotent replay)',
    async (c) => {
      const res = await c.answer('POST', '/reservations', reservation, t.reservationMs);
      demand(res.status === 200, `HTTP ${res.status} ${show(res.body)}, expected 200`);
      demand(sameJson(res.body, held), `body ${show(res.body)} differs from the first answer ${show(held)}`);
    },
    { needs: ['reservation'] },
  );

  const orderId = id();
  const order = orderBody(orderId, reservationId, ORDER_QUANTITY);
  const accepted = await run.check(
    'order',
    "POST /orders answers 201 {order_id, status: 'accepted'} (or 202 'pending_stock')",
    async (c) => {
      const res = await c.answer('POST', '/orders', order, t.orderMs);
      const body = res.body;
      demand(res.status === 201 || res.status === 202, `HTTP ${res.status} ${show(body)}, expected 201`);
      demand(isObject(body) && body.order_id === orderId, `body ${show(body)} does not echo order_id`);
      demand(
        body.status === (res.status === 201 ? 'accepted' : 'pending_stock'),
        `HTTP ${res.status} with status ${show(body.status)}`,
      );
      return body;
    },
    { needs: ['reservation'] },
  );

  await run.check(
    'order_duplicate',
    'the same POST /orders again answers 409 with exactly the original body',
    async (c) => {
      const res = await c.answer('POST', '/orders', order, t.orderMs);
      demand(res.status === 409, `HTTP ${res.status} ${show(res.body)}, expected 409`);
      demand(sameJson(res.body, accepted), `body ${show(res.body)} differs from the original ${show(accepted)}`);
    },
    { needs: ['order'] },
  );

  const items = await run.check(
    'items_ready',
    `GET /orders/{id}/items reaches status 'ready' with exactly ${ORDER_QUANTITY} items (pending answers carry no items)`,
    async (c) => {
      for (const wait of run.pollDelays) {
        if (wait > 0) await deps.clock.sleep(wait);
        const res = await c.answer('GET', `/orders/${orderId}/items`, undefined, t.pollMs, itemsLimit);
        const body = res.body;
        demand(res.status === 200, `HTTP ${res.status} ${show(body)}, expected 200`);
        demand(
          isObject(body) && body.order_id === orderId && Array.isArray(body.items),
          `body ${show(body)} is not {order_id, status, items}`,
        );
        const list = body.items as unknown[];
        if (body.status === 'pending') {
          demand(list.length === 0, `a pending answer carries ${list.length} items`);
          continue;
        }
        demand(body.status === 'ready', `status ${show(body.status)}, expected 'pending' or 'ready'`);
        demand(list.length === ORDER_QUANTITY, `ready with ${list.length} items, expected exactly ${ORDER_QUANTITY}`);
        const bad = list.find((item) => !validItem(item));
        demand(bad === undefined, `item ${show(bad)} is not a text or file item`);
        return list;
      }
      const waited = run.pollDelays.reduce((a, b) => a + b, 0);
      demand(false, `still pending after ${run.pollDelays.length} polls over ${waited / 1000} s`);
    },
    { needs: ['order'] },
  );

  await run.check(
    'items_stable',
    'a later GET /orders/{id}/items answers the same items with the same values',
    async (c) => {
      const res = await c.answer('GET', `/orders/${orderId}/items`, undefined, t.pollMs, itemsLimit);
      demand(
        res.status === 200 && isObject(res.body) && res.body.status === 'ready',
        `HTTP ${res.status} ${show(res.body)}, expected the ready answer again`,
      );
      demand(sameJson(res.body.items, items), 'the items differ from the first ready answer');
    },
    { needs: ['items_ready'] },
  );

  const returned = await run.check(
    'items_returned',
    'DELETE /orders/{id}/items answers 200 {order_id, returned} (405 when unsupported)',
    async (c) => {
      const res = await c.answer('DELETE', `/orders/${orderId}/items`, undefined, t.cancelMs);
      if (res.status === 405) return false;
      demand(res.status === 200, `HTTP ${res.status} ${show(res.body)}, expected 200 (or 405)`);
      demand(
        isObject(res.body) && res.body.order_id === orderId && Number.isInteger(res.body.returned),
        `body ${show(res.body)} is not {order_id, returned}`,
      );
      return true;
    },
    { needs: ['order'] },
  );

  if (returned === true) {
    await run.check(
      'items_withheld',
      'after DELETE /orders/{id}/items the keys are withheld (no ready answer with items)',
      async (c) => {
        const res = await c.call('GET', `/orders/${orderId}/items`, undefined, t.pollMs, itemsLimit);
        if (res.kind === 'failure') return; // refusing to answer withholds too
        const delivers =
          res.status === 200 && isObject(res.body) && Array.isArray(res.body.items) && res.body.items.length > 0;
        demand(!delivers, 'the items are still handed over after they were returned');
      },
    );
  }

  await run.check(
    'out_of_stock',
    `POST /reservations for ${OVER_STOCK_QUANTITY} (above any declarable stock) answers 409 {code: 'out_of_stock'}`,
    async (c) => {
      const overId = id();
      const res = await c.answer(
        'POST',
        '/reservations',
        reservationBody(overId, OVER_STOCK_QUANTITY, inFifteenMinutes()),
        t.reservationMs,
      );
      if (res.status >= 200 && res.status < 300) await release(c, overId);
      demand(res.status === 409, `HTTP ${res.status} ${show(res.body)}, expected 409`);
      demand(
        isObject(res.body) && res.body.code === 'out_of_stock',
        `body ${show(res.body)}, expected {code: 'out_of_stock'}`,
      );
    },
  );

  await run.check(
    'reservation_expired',
    `a reservation expiring ${SHORT_RESERVATION_MS / 1000} s later is held (201); POST /orders after expires_at answers 410 {code: 'reservation_expired'}`,
    async (c) => {
      const shortId = id();
      const expiresAt = new Date(deps.clock.now().getTime() + SHORT_RESERVATION_MS);
      const res = await c.answer('POST', '/reservations', reservationBody(shortId, 1, expiresAt), t.reservationMs);
      demand(res.status === 201, `the short reservation: HTTP ${res.status} ${show(res.body)}, expected 201`);
      const answered =
        isObject(res.body) && typeof res.body.expires_at === 'string' ? Date.parse(res.body.expires_at) : Number.NaN;
      demand(
        answered === expiresAt.getTime(),
        `the supplier answered expires_at ${show(isObject(res.body) ? res.body.expires_at : undefined)}, expected the requested ${expiresAt.toISOString()}`,
      );
      await deps.clock.sleep(Math.max(0, expiresAt.getTime() - deps.clock.now().getTime()) + EXPIRY_GRACE_MS);
      const late = await c.answer('POST', '/orders', orderBody(id(), shortId, 1), t.orderMs);
      demand(late.status === 410, `HTTP ${late.status} ${show(late.body)}, expected 410`);
      demand(
        isObject(late.body) && late.body.code === 'reservation_expired',
        `body ${show(late.body)}, expected {code: 'reservation_expired'}`,
      );
    },
    { needs: ['reservation'] },
  );
};

const validItem = (item: unknown) =>
  isObject(item) &&
  ((item.kind === 'text' && typeof item.value === 'string') ||
    (item.kind === 'file' &&
      typeof item.file_name === 'string' &&
      typeof item.content_type === 'string' &&
      typeof item.content_base64 === 'string'));
