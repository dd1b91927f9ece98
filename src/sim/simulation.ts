import { TestClock } from '../clock.js';
import { newSecretKey } from '../crypto/secret-box.js';
import { newOperatorToken } from '../crypto/tokens.js';
import { RESERVATION_TTL_MS } from '../domain/contract-timings.js';
import { SIM_FAULT_POINTS, type FaultPoint } from '../faults.js';
import type { SupplierKit } from '../sdk/kit/index.js';
import type { KitRoute, KitFault } from '../sdk/kit/types.js';
import { type CrashPlan } from './crash.js';
import { Invariants, type InvariantFailure } from './invariants.js';
import { Prng } from './prng.js';
import { type Answer, Instance, type Receiver, type ReceiverMode, startKit, startReceiver } from './world.js';

const FORM = [
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
const eur = (amount: number) => ({ amount, currency: 'EUR' });

/**
 * Clock jumps, each across one spec window: a poll offset, the 60 s fast-delivery line,
 * the 5-minute healthcheck, the 10-minute allocation window and sandbox holding period,
 * the 15-minute reservation TTL, the 2-hour cooldown, the webhook ladder's rungs up to
 * 24 hours (and the 24-hour deactivation).
 */
const JUMPS_S = [
  1,
  5,
  10,
  30,
  61,
  5 * 60 + 1,
  10 * 60 + 1,
  RESERVATION_TTL_MS / 1000 + 1,
  30 * 60 + 1,
  2 * 3600 + 1,
  8 * 3600 + 1,
  24 * 3600 + 1,
];

type StepKind =
  | 'upload'
  | 'checkout'
  | 'pay'
  | 'refund'
  | 'dispute'
  | 'invalidate'
  | 'change-offer'
  | 'declared-stock'
  | 'sandbox'
  | 'topup'
  | 'clock'
  | 'webhook-endpoint'
  | 'supplier-fault'
  | 'crash';

const WEIGHTS: Record<StepKind, number> = {
  upload: 8,
  checkout: 14,
  pay: 8,
  refund: 6,
  dispute: 3,
  invalidate: 3,
  'change-offer': 4,
  'declared-stock': 3,
  sandbox: 6,
  topup: 5,
  clock: 16,
  'webhook-endpoint': 3,
  'supplier-fault': 5,
  crash: 4,
};

const START = new Date('2026-01-05T10:00:00.000Z');
/** A step, its drain and its checks take a second or two; two minutes is a hang. */
const STEP_LIMIT_MS = 120_000;

const expectOk = (what: string, res: Answer, ...ok: number[]) => {
  if (res.lost || ok.includes(res.status)) return res;
  throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
};

interface Products {
  key1: string;
  key2: string;
  topup: string;
}

interface Supplier {
  id: string;
  token: string;
  kit?: SupplierKit;
}
interface Offer {
  id: string;
  supplier: Supplier;
  productId: string;
  mode: 'uploaded' | 'declared';
  /** Key values this offer accepted, in upload order. */
  values: string[];
}

export interface SeedResult {
  seed: number;
  steps: number;
  crashes: number;
  checks: number;
  failure?: InvariantFailure & { step: number; replay: string };
  log: string[];
}

export interface SeedOptions {
  seed: number;
  steps: number;
  databaseUrl: string;
  world: SharedWorld;
  /** Compare read models with a rebuild every this many steps (and at the end). */
  rebuildEvery?: number;
  /** Print each step as it runs. */
  verbose?: boolean;
}

/** One seed: setup, `steps` steps drawn from the seed with invariants after each, then settle. */
export const runSeed = async (options: SeedOptions): Promise<SeedResult> => {
  const sim = new Simulation(options);
  try {
    return await sim.run();
  } finally {
    await sim.close();
  }
};

/**
 * What every seed starts from, made once per run: suppliers, products, offers with their
 * first keys, webhook endpoints, and the peers (one reference kit per declared or top-up
 * supplier, one webhook receiver). The database it leaves is the template each seed's
 * database is copied from, so a seed pays for its own steps only. The setup draws nothing
 * from any seed, so `--seed S` alone rebuilds exactly the same starting point.
 */
export interface SharedWorld {
  operatorToken: string;
  secretKey: string;
  kits: SupplierKit[];
  receiver: Receiver;
  products: Products;
  offers: Offer[];
  close(): Promise<void>;
}

// eslint-disable-next-line max-lines-per-function -- the simulated world's parts, each set up once
export const setupWorld = async (databaseUrl: string): Promise<SharedWorld> => {
  const clock = new TestClock(START);
  const operatorToken = newOperatorToken();
  const secretKey = newSecretKey();
  const receiver = await startReceiver();
  const kits: SupplierKit[] = [];
  const offers: Offer[] = [];
  const instance = await Instance.start({ databaseUrl, clock, operatorToken, secretKey });
  const operator = (method: string, path: string, body?: unknown) =>
    instance.request(method, `/operator/v1${path}`, operatorToken, body);
  const api = (s: Supplier, method: string, path: string, body?: unknown) =>
    instance.request(method, `/api/v1${path}`, s.token, body);
  let n = 0;
  try {
    const supplier = async (name: string, withKit: boolean): Promise<Supplier> => {
      const res = expectOk('supplier', await operator('POST', '/suppliers', { name }), 201);
      const s: Supplier = { id: res.body.supplier.id, token: res.body.token };
      if (withKit) {
        s.kit = await startKit(clock);
        kits.push(s.kit);
      }
      return s;
    };
    const product = async (fields: Record<string, unknown>) =>
      expectOk(
        'product',
        await operator('POST', '/products', {
          name: 'Sim',
          type: 'game_key',
          platform: 'steam',
          region: 'EU',
          status: 'sellable',
          ...fields,
        }),
        201,
      ).body.id as string;
    const products = {
      key1: await product({ name: 'Key one' }),
      key2: await product({ name: 'Key two' }),
      topup: await product({ name: 'Gems', type: 'topup', form_fields: FORM }),
    };
    const u1 = await supplier('Uploaded one', false);
    const u2 = await supplier('Uploaded two', false);
    const d1 = await supplier('Declared one', true);
    const d2 = await supplier('Declared two', true);
    const t1 = await supplier('Top-up one', true);
    const offer = async (
      s: Supplier,
      productId: string,
      mode: 'uploaded' | 'declared',
      price: number,
      declared = 5,
    ) => {
      const res = expectOk(
        'offer',
        await api(s, 'POST', '/offers', {
          product_id: productId,
          stock_mode: mode,
          price: eur(price),
          external_ref: `REF-${offers.length + 1}`,
          ...(mode === 'declared' && { fulfilment: { base_url: s.kit!.url }, declared_stock: declared }),
        }),
        201,
      );
      if (mode === 'declared') s.kit!.setSecrets([res.body.fulfilment.secret]);
      const o: Offer = { id: res.body.id, supplier: s, productId, mode, values: [] };
      offers.push(o);
      if (mode === 'uploaded') {
        const values = [1, 2, 3].map(() => `SETUP-${++n}`);
        expectOk(
          'upload',
          await api(s, 'POST', `/offers/${o.id}/inventory`, {
            items: values.map((value) => ({ kind: 'text', value })),
          }),
          201,
        );
        o.values.push(...values);
      }
      expectOk('activate', await api(s, 'POST', `/offers/${o.id}/activate`), 200);
      return o;
    };
    await offer(u1, products.key1, 'uploaded', 1000);
    await offer(u2, products.key1, 'uploaded', 1100);
    await offer(u2, products.key2, 'uploaded', 2000);
    await offer(d1, products.key1, 'declared', 1050);
    await offer(d2, products.key2, 'declared', 1900);
    await offer(t1, products.topup, 'declared', 500, 1000);
    for (const s of [u1, d1, t1])
      expectOk('webhook', await api(s, 'POST', '/webhooks', { url: receiver.url, events: ['*'] }), 201);
    await instance.drain();
    await instance.stop();
    return {
      operatorToken,
      secretKey,
      kits,
      receiver,
      products,
      offers,
      close: async () => {
        await receiver.close();
        await Promise.all(kits.map((k) => k.close()));
      },
    };
  } catch (error) {
    await instance.stop().catch(() => undefined);
    await receiver.close();
    await Promise.all(kits.map((k) => k.close()));
    throw error;
  }
};

class Simulation {
  private readonly prng: Prng;
  private readonly clock = new TestClock(START);
  private instance!: Instance;
  private readonly receiver: Receiver;
  private readonly kits: SupplierKit[];
  private readonly offers: Offer[];
  private readonly products: Products;
  private valueCounter = 0;
  private crashes = 0;
  private armed: CrashPlan | null = null;
  private readonly invariants: Invariants;
  private readonly log: string[] = [];

  constructor(private readonly options: SeedOptions) {
    this.prng = new Prng(options.seed);
    const w = options.world;
    this.receiver = w.receiver;
    this.kits = w.kits;
    this.products = w.products;
    // the seed's own copy: accepted values grow during the seed
    this.offers = w.offers.map((o) => ({ ...o, values: [...o.values] }));
    this.invariants = new Invariants(options.databaseUrl, this.clock, this.kits);
    for (const o of this.offers) if (o.mode === 'uploaded') this.invariants.uploaded(o.id, o.values);
  }

  private note(line: string) {
    this.log.push(line);
    if (this.options.verbose) console.log(line);
  }

  async run(): Promise<SeedResult> {
    const { seed, steps } = this.options;
    const t0 = performance.now();
    // the peers outlive seeds: forget what the last seed did to them
    this.receiver.setMode(200);
    for (const k of this.kits) {
      k.faults.clear();
      k.received.length = 0;
    }
    this.instance = await this.start();
    await this.invariants.open();
    if (this.options.verbose) this.note(`start ${(performance.now() - t0).toFixed(0)} ms`);
    const fail = (f: InvariantFailure, step: number): SeedResult => ({
      seed,
      steps: step,
      crashes: this.crashes,
      checks: this.invariants.checks,
      failure: { ...f, step, replay: `npm run simulate -- --seed ${seed} --steps ${step}` },
      log: this.log,
    });
    for (let step = 1; step <= steps; step++) {
      const failure = await this.withinLimit(step, () => this.oneStep(step));
      if (failure) return fail(failure, step);
    }
    const failure = await this.withinLimit(steps, () => this.settle());
    if (failure) return fail(failure, steps);
    return { seed, steps, crashes: this.crashes, checks: this.invariants.checks, log: this.log };
  }

  /**
   * A step (with its drain and checks) that does not finish within the limit is a failure
   * too: a hang (a drain that never settles, a wait nobody ends) is reported with its seed
   * and step like any broken rule, instead of stopping the run.
   */
  private async withinLimit(
    step: number,
    work: () => Promise<InvariantFailure | undefined>,
  ): Promise<InvariantFailure | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<InvariantFailure>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            invariant: 'every step finishes',
            detail: `step ${step} did not finish within ${STEP_LIMIT_MS / 1000} s`,
          }),
        STEP_LIMIT_MS,
      );
    });
    try {
      return await Promise.race([work(), limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async oneStep(step: number): Promise<InvariantFailure | undefined> {
    const kind = this.prng.weighted(WEIGHTS);
    const t0 = performance.now();
    await this.step(step, kind);
    const t1 = performance.now();
    await this.instance.drain();
    const t2 = performance.now();
    await this.restartIfCrashed(step);
    const t3 = performance.now();
    const full = step % (this.options.rebuildEvery ?? 10) === 0;
    const failure = await this.invariants.check({
      rebuild: full,
      deliverables: full ? (p) => this.operator('GET', p) : undefined,
    });
    if (this.options.verbose)
      this.note(
        `   step ${(t1 - t0).toFixed(0)} ms, drain ${(t2 - t1).toFixed(0)} ms, restart ${(t3 - t2).toFixed(0)} ms, checks ${(performance.now() - t3).toFixed(0)} ms`,
      );
    return failure;
  }

  /** No new work; faults stop and time runs past every window (the webhook ladder is the longest). */
  private async settle(): Promise<InvariantFailure | undefined> {
    this.instance.disarmCrash();
    this.armed = null;
    this.receiver.setMode(200);
    for (const k of this.kits) k.faults.clear();
    for (const s of [
      61,
      10 * 60 + 1,
      RESERVATION_TTL_MS / 1000 + 1,
      2 * 3600 + 1,
      8 * 3600 + 1,
      24 * 3600 + 1,
      24 * 3600 + 1,
    ]) {
      this.clock.advance(s);
      await this.instance.drain();
    }
    this.note('settled: faults off, the clock past every window');
    return this.invariants.check({ rebuild: true, settled: true, deliverables: (p) => this.operator('GET', p) });
  }

  /** Bounded: after a hang the instance may never stop; it is then left behind like a crashed one. */
  async close() {
    const bounded = (p: Promise<unknown>) =>
      Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000).unref())]);
    await bounded(this.instance?.stop() ?? Promise.resolve());
    await bounded(this.invariants.close());
  }

  private start() {
    const w = this.options.world;
    return Instance.start({
      databaseUrl: this.options.databaseUrl,
      clock: this.clock,
      operatorToken: w.operatorToken,
      secretKey: w.secretKey,
    });
  }

  private async restartIfCrashed(step: number) {
    if (!this.instance.crashed) return;
    this.crashes++;
    this.note(`#${step} crashed at ${this.instance.crashed}; restarting on the same database`);
    this.instance.disarmCrash();
    this.armed = null;
    // the dead instance is abandoned, never stopped gracefully
    this.instance = await this.start();
    await this.instance.drain();
  }

  private operator(method: string, path: string, body?: unknown) {
    return this.instance.request(method, `/operator/v1${path}`, this.options.world.operatorToken, body);
  }
  private api(s: Supplier, method: string, path: string, body?: unknown) {
    return this.instance.request(method, `/api/v1${path}`, s.token, body);
  }

  private expectOk(what: string, res: Answer, ...ok: number[]) {
    return expectOk(what, res, ...ok);
  }

  private nextValue() {
    return `SIM-${this.options.seed}-${++this.valueCounter}-${this.prng.int(100000, 999999)}`;
  }

  private async upload(o: Offer, count: number, duplicates: boolean) {
    const values: string[] = [];
    for (let i = 0; i < count; i++) {
      if (duplicates && o.values.length > 0 && this.prng.chance(0.3)) values.push(this.prng.pick(o.values));
      else values.push(this.nextValue());
    }
    const mode = this.prng.chance(0.5) ? 'strict' : 'partial';
    const res = await this.api(o.supplier, 'POST', `/offers/${o.id}/inventory`, {
      items: values.map((value) => ({ kind: 'text', value })),
      mode,
    });
    this.expectOk('upload', res, 201, 422, 409);
    if (res.lost) {
      // the answer died with the instance: the upload may or may not have been stored
      values.forEach((v) => !o.values.includes(v) && o.values.push(v));
    } else if (res.status === 201) {
      const rejected = new Set<number>((res.body.rejected ?? []).map((r: { index: number }) => r.index));
      values.forEach((v, i) => !rejected.has(i) && !o.values.includes(v) && o.values.push(v));
    }
    this.invariants.uploaded(o.id, o.values);
    return res;
  }

  private async knownOrders(): Promise<{ id: string; status: string }[]> {
    return this.invariants.orders();
  }

  // eslint-disable-next-line max-lines-per-function -- one case per kind of simulation step
  private async step(n: number, kind: StepKind) {
    const p = this.prng;
    switch (kind) {
      case 'upload': {
        const o = p.pick(this.offers.filter((x) => x.mode === 'uploaded'));
        const res = await this.upload(o, p.int(1, 4), true);
        return this.note(`#${n} upload to offer ${this.offers.indexOf(o)}: ${res.status}`);
      }
      case 'checkout': {
        const productId = p.pick([this.products.key1, this.products.key1, this.products.key2]);
        const quantity = p.int(1, 3);
        const payNow = p.chance(0.5);
        const res = await this.operator('POST', '/orders', {
          items: [{ product_id: productId, quantity }],
          buyer_country: p.pick(['DE', 'FR', 'PL']),
        });
        this.expectOk('checkout', res, 201, 409, 422);
        if (payNow && res.status === 201)
          this.expectOk('pay', await this.operator('POST', `/orders/${res.body.id}/pay`), 200, 409);
        return this.note(
          `#${n} checkout ${quantity} of ${productId === this.products.key1 ? 'key one' : 'key two'}${payNow ? ' and pay' : ''}: ${res.status}`,
        );
      }
      case 'pay':
      case 'refund':
      case 'dispute': {
        const orders = await this.knownOrders();
        const wanted = kind === 'pay' ? ['placed'] : ['paid', 'completed', 'partially_refunded'];
        const candidates = orders.filter((o) => wanted.includes(o.status));
        if (candidates.length === 0) return this.note(`#${n} ${kind}: nothing to do`);
        const order = p.pick(candidates);
        const index = orders.indexOf(order);
        let body: unknown = kind === 'pay' ? undefined : {};
        if (kind !== 'pay' && p.chance(0.4)) {
          const items = await this.invariants.orderItems(order.id);
          if (items.length > 0) body = { item_ids: [p.pick(items)] };
        }
        const res = await this.operator('POST', `/orders/${order.id}/${kind}`, body);
        this.expectOk(kind, res, 200, 409);
        return this.note(
          `#${n} ${kind} order ${index}${body && (body as any).item_ids ? ' (one item)' : ''}: ${res.status}`,
        );
      }
      case 'invalidate': {
        const items = await this.invariants.inventoryItems();
        if (items.length === 0) return this.note(`#${n} invalidate: nothing`);
        const index = p.int(0, items.length - 1);
        const item = items[index]!;
        const res = await this.operator('POST', `/inventory/${item}/invalidate`, { reason: 'leaked' });
        this.expectOk('invalidate', res, 200, 409);
        return this.note(`#${n} invalidate item ${index} of ${items.length}: ${res.status}`);
      }
      case 'change-offer': {
        const o = p.pick(this.offers);
        const what = p.pick(['price', 'deactivate', 'activate', 'activate']);
        const res =
          what === 'price'
            ? await this.api(o.supplier, 'PATCH', `/offers/${o.id}`, { price: eur(p.int(400, 2500)) })
            : await this.api(o.supplier, 'POST', `/offers/${o.id}/${what}`);
        this.expectOk('offer change', res, 200, 409, 422);
        return this.note(`#${n} ${what} offer ${this.offers.indexOf(o)}: ${res.status}`);
      }
      case 'declared-stock': {
        const o = p.pick(this.offers.filter((x) => x.mode === 'declared'));
        const res = await this.api(o.supplier, 'PUT', `/offers/${o.id}/stock`, { declared_stock: p.int(0, 8) });
        this.expectOk('declared stock', res, 200);
        return this.note(`#${n} declared stock offer ${this.offers.indexOf(o)}: ${res.status}`);
      }
      case 'sandbox': {
        const o = p.pick(this.offers);
        const scenario = p.pick(['paid', 'abandoned', 'refunded', 'disputed']);
        const topup = o.productId === this.products.topup;
        const res = await this.api(o.supplier, 'POST', '/sandbox/orders', {
          offer_id: o.id,
          quantity: topup ? 1 : p.int(1, 2),
          buyer_country: 'DE',
          scenario,
          ...(topup && { form_fields: { user_id: '100001' } }),
        });
        this.expectOk('sandbox order', res, 201, 409, 422);
        return this.note(`#${n} sandbox ${scenario} on offer ${this.offers.indexOf(o)}: ${res.status}`);
      }
      case 'topup': {
        const user = p.pick(['100001', '100001', '777777', '888888', '999999']);
        const res = await this.operator('POST', '/orders', {
          items: [{ product_id: this.products.topup, quantity: p.int(1, 3) }],
          buyer_country: 'DE',
          form_fields: { user_id: user },
        });
        this.expectOk('topup checkout', res, 201, 409, 422);
        if (res.status === 201 && p.chance(0.8))
          this.expectOk('topup pay', await this.operator('POST', `/orders/${res.body.id}/pay`), 200, 409);
        return this.note(`#${n} top-up for ${user}: ${res.status}`);
      }
      case 'clock': {
        const s = p.pick(JUMPS_S);
        this.clock.advance(s);
        return this.note(`#${n} clock +${s}s`);
      }
      case 'webhook-endpoint': {
        const mode = p.pick<ReceiverMode>([200, 200, 500, 410, 'hang']);
        this.receiver.setMode(mode);
        return this.note(`#${n} webhook receiver answers ${mode}`);
      }
      case 'supplier-fault': {
        const kit = p.pick(this.kits);
        const choices: [KitRoute, KitFault][] = [
          ['POST /reservations', { kind: 'status', status: 500 }],
          ['POST /reservations', { kind: 'status', status: 409, body: { code: 'out_of_stock' } }],
          ['POST /orders', { kind: 'status', status: 503 }],
          ['POST /orders', { kind: 'hang', process: true }],
          ['POST /orders', { kind: 'pending_stock' }],
          ['POST /orders', { kind: 'reservation_expired' }],
          ['GET /orders/:id/items', { kind: 'stay_pending' }],
          ['GET /orders/:id/items', { kind: 'wrong_count' }],
          ['GET /orders/:id/items', { kind: 'malformed' }],
          ['GET /healthcheck', { kind: 'status', status: 500 }],
          ['GET /healthcheck', { kind: 'hang' }],
          ['POST /topup/validate', { kind: 'status', status: 500 }],
          ['POST /topup/execute', { kind: 'topup_failed' }],
          ['POST /topup/execute', { kind: 'topup_processing', settleAfterMs: 60_000 }],
          ['POST /topup/execute', { kind: 'status', status: 500, process: true }],
          ['GET /topup/operations/:id', { kind: 'status', status: 500 }],
        ];
        const [route, fault] = p.pick(choices);
        const times = p.chance(0.2) ? undefined : p.int(1, 3);
        kit.faults.set(route, { ...fault, ...(times && { times }) });
        if (p.chance(0.3)) {
          const other = p.pick(this.kits);
          other.faults.clear();
        }
        return this.note(
          `#${n} supplier fault at kit ${this.kits.indexOf(kit)}: ${route} ${fault.kind} x${times ?? '∞'}`,
        );
      }
      case 'crash': {
        if (this.armed) return this.note(`#${n} crash already armed`);
        const plan: CrashPlan = { point: p.pick<FaultPoint>(SIM_FAULT_POINTS), hit: p.int(1, 3) };
        this.armed = plan;
        this.instance.arm(plan);
        return this.note(`#${n} arm crash at ${plan.point} (hit ${plan.hit})`);
      }
    }
  }
}
