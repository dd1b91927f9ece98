import { randomUUID } from 'node:crypto';
import { type Answer, request } from '../support/http.js';

/**
 * Keyed order traffic against several instances, as clients that retry with the same
 * Idempotency-Key until they get an answer: sandbox orders through the supplier API and
 * storefront checkouts (create, then pay) through the operator API. Every attempt is kept,
 * so a test can say when writes stopped and started again.
 */
export interface Attempt {
  sentAt: number;
  doneAt: number;
  status: number;
  retryAfter: string | null;
}

export interface Keyed {
  key: string;
  kind: 'sandbox' | 'checkout';
  instance: number;
  attempts: Attempt[];
  ackAt?: number;
  orderId?: string;
  /** An answer no retry can change (4xx other than 409 and 429). */
  refused?: string;
}

export interface Target {
  /** Origins of the instances. */
  origins: string[];
  supplierToken: string;
  operatorToken: string;
  offerId: string;
  productId: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (status: number) => status >= 200 && status < 300;
/** A client gives up on a key after this long: the test then fails on the key left unanswered. */
const GIVE_UP_MS = 90_000;

/** Sends one keyed call until it is answered 2xx; every attempt is recorded on `keyed`. */
const untilAnswered = async (keyed: Keyed, send: () => Promise<Answer>): Promise<Answer | undefined> => {
  const started = Date.now();
  for (;;) {
    const sentAt = Date.now();
    const answer = await send().catch(
      (error: unknown) => ({ status: 0, headers: new Headers(), body: String(error), text: '' }) as Answer,
    );
    keyed.attempts.push({
      sentAt,
      doneAt: Date.now(),
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
    });
    if (ok(answer.status)) return answer;
    // a 409 is the key's first attempt still under way; a 429 and a 5xx ask for a retry
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 409 && answer.status !== 429) {
      keyed.refused = `${answer.status} ${answer.text}`;
      return undefined;
    }
    if (Date.now() - started > GIVE_UP_MS) return undefined;
    await sleep(100);
  }
};

const placeSandboxOrder = async (t: Target, keyed: Keyed) => {
  const origin = t.origins[keyed.instance]!;
  const answer = await untilAnswered(keyed, () =>
    request(origin, 'POST', '/api/v1/sandbox/orders', {
      token: t.supplierToken,
      headers: { 'idempotency-key': keyed.key },
      body: { offer_id: t.offerId, quantity: 1, buyer_country: 'DE' },
    }),
  );
  if (answer) {
    keyed.orderId = (answer.body as { id: string }).id;
    keyed.ackAt = Date.now();
  }
};

const checkout = async (t: Target, keyed: Keyed) => {
  const origin = t.origins[keyed.instance]!;
  const placed = await untilAnswered(keyed, () =>
    request(origin, 'POST', '/operator/v1/orders', {
      token: t.operatorToken,
      headers: { 'idempotency-key': `${keyed.key}-place` },
      body: { items: [{ product_id: t.productId, quantity: 1 }], buyer_country: 'DE' },
    }),
  );
  if (!placed) return;
  const orderId = (placed.body as { id: string }).id;
  const paid = await untilAnswered(keyed, () =>
    request(origin, 'POST', `/operator/v1/orders/${orderId}/pay`, {
      token: t.operatorToken,
      headers: { 'idempotency-key': `${keyed.key}-pay` },
    }),
  );
  if (paid) {
    keyed.orderId = orderId;
    keyed.ackAt = Date.now();
  }
};

/**
 * `workers` clients, each sending one keyed operation after another (alternating sandbox
 * orders and checkouts, spread over the instances) until `stop()`; `stop` resolves once every
 * client's last key is answered or given up.
 */
export const startTraffic = (t: Target, workers: number) => {
  const keys: Keyed[] = [];
  let stopping = false;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let n = 0; !stopping; n++) {
      const keyed: Keyed = {
        key: randomUUID(),
        kind: (w + n) % 2 === 0 ? 'sandbox' : 'checkout',
        instance: (w + n) % t.origins.length,
        attempts: [],
      };
      keys.push(keyed);
      await (keyed.kind === 'sandbox' ? placeSandboxOrder(t, keyed) : checkout(t, keyed));
      await sleep(20);
    }
  });
  return {
    keys,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
      return keys;
    },
  };
};

/**
 * How long writes were unavailable around `at`: from the last 2xx answered before it to the
 * first 2xx of an attempt sent after it.
 */
export const writeWindow = (keys: Keyed[], at: number) => {
  const attempts = keys.flatMap((k) => k.attempts);
  const before = Math.max(...attempts.filter((a) => ok(a.status) && a.doneAt <= at).map((a) => a.doneAt));
  const after = Math.min(...attempts.filter((a) => ok(a.status) && a.sentAt >= at).map((a) => a.doneAt));
  return { lastBefore: before, firstAfter: after, ms: after - before };
};

/**
 * When writes answered again after `promotedAt`: the first 2xx answered from then on to an
 * attempt sent after the failure began (`from`), so none committed before the failure counts.
 */
export const firstWriteAfter = (keys: Keyed[], from: number, promotedAt: number) =>
  Math.min(
    ...keys
      .flatMap((k) => k.attempts)
      .filter((a) => ok(a.status) && a.sentAt >= from && a.doneAt >= promotedAt)
      .map((a) => a.doneAt),
  );

/** One read: when it was sent and answered (or given up), and what came back. */
export interface Read {
  sentAt: number;
  doneAt: number;
  instance: number;
  status: number;
  retryAfter: string | null;
  text: string;
}

/** A read not answered within this is given up and recorded with status 0: the test then fails on it. */
const READ_GIVE_UP_MS = 10_000;

/**
 * Reads of one offer on every instance, every 50 ms, until stopped: every read is kept with
 * its latency, the failed ones also apart.
 */
export const startReads = (t: Target) => {
  const all: Read[] = [];
  const failures: { at: number; instance: number; status: number; retryAfter: string | null; text: string }[] = [];
  /** When a read failed right after a failed read on the same instance. */
  const twice: number[] = [];
  let stopping = false;
  const lastFailed = t.origins.map(() => false);
  const loops = t.origins.map(async (origin, instance) => {
    while (!stopping) {
      const at = Date.now();
      const answer = await request(origin, 'GET', `/api/v1/offers/${t.offerId}`, {
        token: t.supplierToken,
        signal: AbortSignal.timeout(READ_GIVE_UP_MS),
      }).catch((error: unknown) => ({ status: 0, text: String(error) }) as Answer);
      const retryAfter = answer.headers?.get('retry-after') ?? null;
      all.push({
        sentAt: at,
        doneAt: Date.now(),
        instance,
        status: answer.status,
        retryAfter,
        text: answer.text.slice(0, 200),
      });
      const failed = answer.status !== 200;
      if (failed && lastFailed[instance]) twice.push(at);
      lastFailed[instance] = failed;
      if (failed) failures.push({ at, instance, status: answer.status, retryAfter, text: answer.text.slice(0, 200) });
      await sleep(50);
    }
  });
  return {
    all,
    failures,
    twice,
    count: () => all.length,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
};
