/**
 * `npm run soak`: the service as `npm start` runs it (the sandbox on embedded Postgres, in a
 * process of its own, its heap capped), under steady mixed load for a given time: four
 * suppliers placing sandbox orders with Idempotency-Keys, about three reads per order, every
 * event delivered to a webhook receiver here. Each minute it prints the service's resident
 * memory, its heap after collection, its event-loop lag p99, /healthz's p99 as this side
 * sees it, and what was done; at the end, the figures the memory budget is judged by.
 *
 *   npm run soak -- --minutes 30 --rate 100 --heap 128 [--out soak.json]
 *
 * The load side stays light: undici pools, an open loop ticking every 100 ms (orders not
 * sent because too many are in flight are counted as `behind`), nothing parsed but the ids
 * it needs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { freePort } from '../src/db/embedded.js';
import { MAX_ITEMS_PER_UPLOAD } from '../src/domain/inventory-items.js';
import { type Minute, summary, type Totals } from './soak-figures.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '100' },
    heap: { type: 'string', default: '128' },
    reads: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});
const MINUTES = Number(args.minutes);
const RATE = Number(args.rate);
const HEAP_MB = Number(args.heap);
const READS_PER_ORDER = Number(args.reads);
const SUPPLIERS = 4;
/** Orders in flight past which a tick sends none (the service is behind; counted). */
const MAX_IN_FLIGHT = Math.max(64, RATE * 2);
const root = path.resolve(import.meta.dirname, '..');

/** Starts `npm start`'s command with the heap capped; resolves with the lines it prints once listening. */
const startService = async (dataDir: string) => {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', 'src/cli/main.ts', 'serve'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        SVC_ENV: 'sandbox',
        SVC_DATA_DIR: dataDir,
        SVC_ALLOW_PRIVATE_TARGETS: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const printed = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = Object.fromEntries(
        out
          .split('\n')
          .filter((l) => /^[a-z_]+=/.test(l))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      if (lines.demo_supplier_token) resolve(lines);
    });
    child.once('exit', (code) => reject(new Error(`the service stopped before it listened (exit ${code})`)));
  });
  child.stdout!.resume();
  return {
    child,
    origin: printed.base_url!,
    operatorToken: printed.operator_token!,
    demoToken: printed.demo_supplier_token!,
  };
};

const stopService = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Receives every delivery and answers 204 at once; counts them. */
const startReceiver = async () => {
  const counts = { deliveries: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      counts.deliveries++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, counts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
};

const main = async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-soak-'));
  // the embedded server runs as its own user, which must reach the folder
  await chmod(dataDir, 0o755);
  const receiver = await startReceiver();
  const service = await startService(dataDir);
  // the service and its embedded Postgres do not outlive the soak, however it ends
  const stop = () => void stopService(service.child).then(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await soak(service, receiver);
  } finally {
    await stopService(service.child);
    receiver.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

type Service = Awaited<ReturnType<typeof startService>>;
type Method = 'GET' | 'POST' | 'PUT';

/** Requests to the service over one undici pool; writes carry an Idempotency-Key. */
const clientOf = (pool: Pool) => {
  const call = async (method: Method, url: string, token: string, body?: unknown) => {
    const res = await pool.request({
      method,
      path: url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(method !== 'GET' && { 'idempotency-key': randomUUID() }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };
  const must = async (method: Method, url: string, token: string, body?: unknown) => {
    const res = await call(method, url, token, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
    return JSON.parse(res.text) as any;
  };
  return { call, must };
};
type Client = ReturnType<typeof clientOf>;

/**
 * Four suppliers (the demo one and three more), each with an offer of uploaded keys, a
 * webhook endpoint for every event, and limits raised for the load.
 */
const prepareSuppliers = async ({ must }: Client, service: Service, hooksUrl: string): Promise<Supplier[]> => {
  const tokens = [service.demoToken];
  for (let n = 1; n < SUPPLIERS; n++)
    tokens.push((await must('POST', '/operator/v1/suppliers', service.operatorToken, { name: `Soak ${n}` })).token);
  const unlimited = Object.fromEntries(
    ['reads', 'writes', 'sync', 'bulk', 'simulate', 'test', 'per_supplier'].map((c) => [c, 1_000_000]),
  );
  const suppliers: Supplier[] = [];
  for (const [n, token] of tokens.entries()) {
    const { supplier } = await must('GET', '/api/v1/whoami', token);
    await must('PUT', `/operator/v1/suppliers/${supplier.id}/rate-limits`, service.operatorToken, unlimited);
    const product = await must('POST', '/operator/v1/products', service.operatorToken, {
      name: `Soak product ${n}`,
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
    });
    const offer = await must('POST', '/api/v1/offers', token, {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 1999, currency: 'EUR' },
      external_ref: `SOAK-${n}`,
    });
    await must('POST', '/api/v1/webhooks', token, { url: hooksUrl, events: ['*'], description: 'soak' });
    suppliers.push({ token, offerId: offer.id as string, uploaded: 0, ordered: 0, restocking: false, orderIds: [] });
  }
  return suppliers;
};

let keyNo = 0;
/** Uploads a thousand keys to the supplier's offer. */
const restock = async ({ must }: Client, s: Supplier) => {
  s.restocking = true;
  try {
    const items = Array.from({ length: MAX_ITEMS_PER_UPLOAD }, () => ({ kind: 'text', value: `SOAK-${keyNo++}` }));
    await must('POST', `/api/v1/offers/${s.offerId}/inventory`, s.token, { items });
    s.uploaded += items.length;
  } finally {
    s.restocking = false;
  }
};

/** The load's requests, each counted in the minute under way. */
class Load {
  minute = newCounts();
  inFlight = 0;
  private reads = 0;

  constructor(private readonly client: Client) {}

  private failed(what: string): void {
    this.minute.errors++;
    this.minute.firstError ??= what;
  }

  async order(s: Supplier): Promise<void> {
    this.inFlight++;
    s.ordered++;
    try {
      const body = { offer_id: s.offerId, quantity: 1, buyer_country: 'DE' };
      const res = await this.client.call('POST', '/api/v1/sandbox/orders', s.token, body);
      if (res.status !== 201) return this.failed(`${res.status} ${res.text.slice(0, 300)}`);
      this.minute.orders++;
      const id = /"id":"([^"]+)"/.exec(res.text)?.[1];
      if (id) s.orderIds.push(id);
      if (s.orderIds.length > 200) s.orderIds.splice(0, 100);
    } catch (error) {
      this.failed(String(error));
    } finally {
      this.inFlight--;
    }
  }

  /** One of: a recent order of the supplier's, its offer, its first page of orders. */
  async read(s: Supplier): Promise<void> {
    const n = this.reads++;
    const recent = s.orderIds[s.orderIds.length - 1 - (n % Math.max(1, s.orderIds.length))];
    const url =
      n % 3 === 0 && recent
        ? `/api/v1/orders/${recent}`
        : n % 3 === 1
          ? `/api/v1/offers/${s.offerId}`
          : '/api/v1/orders?limit=20';
    try {
      const res = await this.client.call('GET', url, s.token);
      if (res.status === 200) this.minute.reads++;
      else this.failed(`GET ${url}: ${res.status} ${res.text.slice(0, 300)}`);
    } catch (error) {
      this.failed(String(error));
    }
  }

  /**
   * The service's own figures, every 5 s: a minute keeps its lowest heap (the heap after
   * collection, as near as sampling gets) and its highest event-loop lag p99 (prom-client's
   * percentiles cover the time since the scrape before).
   */
  async scrape(probe: Pool, operatorToken: string): Promise<void> {
    const res = await probe.request({
      method: 'GET',
      path: '/metrics',
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    const text = await res.body.text();
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    const m = this.minute;
    m.rss = value('process_resident_memory_bytes');
    m.heapAfterGc = Math.min(m.heapAfterGc, value('nodejs_heap_size_used_bytes'));
    m.loopLagP99 = Math.max(m.loopLagP99, value('nodejs_eventloop_lag_p99_seconds'));
    m.stateCache = value('svc_state_cache_bytes\\{kind="held"\\}');
  }

  private checking = false;

  /**
   * /healthz's time as a client sees it, over a connection of its own; one at a time (a check
   * still waiting when the next is due is the one timed, not a queue of them here).
   */
  async health(probe: Pool): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    const started = performance.now();
    try {
      const res = await probe.request({ method: 'GET', path: '/healthz' });
      await res.body.dump();
      this.minute.healthz.push(performance.now() - started);
    } finally {
      this.checking = false;
    }
  }
}

const soak = async (service: Service, receiver: Awaited<ReturnType<typeof startReceiver>>) => {
  const pool = new Pool(service.origin, { connections: 32, pipelining: 1 });
  const probe = new Pool(service.origin, { connections: 1 });
  const scraper = new Pool(service.origin, { connections: 1 });
  const client = clientOf(pool);
  const suppliers = await prepareSuppliers(client, service, receiver.url);
  // stock for a minute and a half at the full rate before the clock starts
  for (const s of suppliers) {
    for (let u = 0; u < Math.ceil((RATE * 90) / SUPPLIERS / MAX_ITEMS_PER_UPLOAD); u++) await restock(client, s);
    await client.must('POST', `/api/v1/offers/${s.offerId}/activate`, s.token);
  }
  const load = new Load(client);
  console.log(
    `soak: ${MINUTES} min, ${RATE} sandbox orders/s over ${SUPPLIERS} suppliers, ${READS_PER_ORDER} reads per order, heap capped at ${HEAP_MB} MB`,
  );
  console.log(
    'min  rss_MB  heap_gc_MB  cache_MB  loop_p99_ms  healthz_p99_ms  orders  reads  deliveries  errors  behind',
  );
  const minutes: Minute[] = [];
  let deliveries = receiver.counts.deliveries;
  const started = Date.now();
  let tick = 0;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const ticker = setInterval(() => {
      tick++;
      const elapsed = (Date.now() - started) / 1000;
      for (let due = Math.floor(elapsed * RATE) - sent; due > 0; due--) {
        const s = suppliers[++sent % SUPPLIERS]!;
        if (load.inFlight >= MAX_IN_FLIGHT) {
          load.minute.behind++;
          continue;
        }
        void load.order(s);
        for (let r = 0; r < READS_PER_ORDER; r++) void load.read(s);
        if (!s.restocking && s.uploaded - s.ordered < RATE * 30) void restock(client, s).catch(() => undefined);
      }
      void load.health(probe).catch(() => load.minute.errors++);
      if (tick % 50 === 0) void load.scrape(scraper, service.operatorToken).catch(() => undefined);
      if (elapsed < (minutes.length + 1) * 60) return;
      const done = load.minute;
      load.minute = newCounts();
      done.deliveries = receiver.counts.deliveries - deliveries;
      deliveries = receiver.counts.deliveries;
      const m = finish(minutes.length + 1, done);
      minutes.push(m);
      console.log(line(m));
      if (done.firstError) console.log(`     first error: ${done.firstError}`);
      if (minutes.length < MINUTES) return;
      clearInterval(ticker);
      resolve();
    }, 100);
  });

  const totals: Totals = summary(minutes);
  console.log(JSON.stringify(totals, null, 2));
  if (args.out) await writeFile(args.out, JSON.stringify({ rate: RATE, heapMb: HEAP_MB, minutes, totals }, null, 2));
  await pool.close();
  await probe.close();
  await scraper.close();
};

interface Supplier {
  token: string;
  offerId: string;
  /** Keys uploaded and orders sent: the stock left, near enough, for restocking. */
  uploaded: number;
  ordered: number;
  restocking: boolean;
  /** The supplier's latest orders, for reads. */
  orderIds: string[];
}

const newCounts = () => ({
  orders: 0,
  reads: 0,
  deliveries: 0,
  errors: 0,
  behind: 0,
  firstError: undefined as string | undefined,
  rss: Number.NaN,
  heapAfterGc: Number.POSITIVE_INFINITY,
  loopLagP99: 0,
  stateCache: Number.NaN,
  healthz: [] as number[],
});

const p99 = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN;
};

const finish = (n: number, c: ReturnType<typeof newCounts>): Minute => ({
  minute: n,
  rssMb: c.rss / 2 ** 20,
  heapAfterGcMb: c.heapAfterGc / 2 ** 20,
  stateCacheMb: c.stateCache / 2 ** 20,
  loopLagP99Ms: c.loopLagP99 * 1000,
  healthzP99Ms: p99(c.healthz),
  orders: c.orders,
  reads: c.reads,
  deliveries: c.deliveries,
  errors: c.errors,
  behind: c.behind,
  machineLoad: os.loadavg()[0]!,
});

const line = (m: Minute) =>
  [
    String(m.minute).padStart(3),
    m.rssMb.toFixed(0).padStart(7),
    m.heapAfterGcMb.toFixed(1).padStart(11),
    m.stateCacheMb.toFixed(1).padStart(9),
    m.loopLagP99Ms.toFixed(1).padStart(12),
    m.healthzP99Ms.toFixed(1).padStart(15),
    String(m.orders).padStart(7),
    String(m.reads).padStart(6),
    String(m.deliveries).padStart(11),
    String(m.errors).padStart(7),
    String(m.behind).padStart(7),
    m.machineLoad.toFixed(1).padStart(6),
  ].join(' ');

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
