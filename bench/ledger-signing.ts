/**
 * `orders.signing`: what signing and verifying ledger entries cost a sandbox order, in CPU.
 *
 * Sandbox orders run end to end over HTTP against a service in a process of its own (as
 * `orders.sandbox` runs them), at concurrency 1 and 32, until the read models applied them; the
 * service process's CPU per order is read from it. A second instance of the same service
 * (same database, same keys, as a deployment of two runs) follows the same events meanwhile,
 * reading each balance entry the first wrote as its subscription brings it. In the same run,
 * this process counts what those orders made the ledger do (the balance events appended, each
 * signed and sealed once; on each instance the Ed25519 verifications and the seals accepted,
 * from their `svc_ledger_signatures_verified_total` and `svc_ledger_seals_accepted_total`)
 * and times an Ed25519 signature, a seal, a verification and a seal's check of an entry text
 * with the ledger's key. Their products are the CPU the orders spent signing and verifying;
 * the raw side is the same orders without it. Printed as orders per CPU second of the service
 * process, so the ratio is the share of an order's CPU left once signing and verifying are
 * taken out (1 / 1.10 = 0.91 is the bound: at most 10 % more CPU per order).
 */
import { ledgerKeys, newLedgerSigningKey } from '../src/crypto/ledger-signing.js';
import { entryText } from '../src/domain/ledger-chain.js';
import { verifyEd25519 } from '../src/sdk/ledger/keys.js';
import { type Benchmark, type BenchContext, fmt, median, type Result, throughput } from './harness.js';
import { sandboxOrder, sandboxService } from './orders.js';
import { startChild } from './processes.js';

const WARMUP = 20;
const ORDERS = Math.max(50, Math.round(300 * Number(process.env.BENCH_SCALE ?? 1)));
const TIMED = 2000;
/** A sandbox order's ledger entries: its sale, and the settlement after the holding period. */
const ENTRIES_PER_ORDER = 2;

/** CPU µs of this process per call of `op`, the median of three rounds of `TIMED` calls. */
const cpuPerCall = (op: (i: number) => void) =>
  median(
    [0, 1, 2].map((round) => {
      const before = process.cpuUsage();
      for (let i = 0; i < TIMED; i++) op(round * TIMED + i);
      const used = process.cpuUsage(before);
      return (used.user + used.system) / TIMED;
    }),
  );

/**
 * What one sign, seal, verification and seal's check of an entry text cost, with a key as the
 * ledger's: the writer's keys sign and seal, a reader's (the same seed, another keyring, as
 * another instance holds it) checks the seal, or verifies when it has none.
 */
const signatureCosts = () => {
  const seed = newLedgerSigningKey();
  const writer = ledgerKeys(seed);
  const key = writer.current;
  const text = (i: number) =>
    entryText({
      supplierId: '01M8TBW00M8F1THKG54WC5GXKQ',
      seq: i,
      prev: 'a'.repeat(64),
      hash: 'b'.repeat(64),
      keyId: key.keyId,
    });
  const signed = Array.from({ length: 3 * TIMED }, (_, i) => key.sign(text(i)));
  const seals = signed.map((signature, i) => key.seal(text(i), signature));
  // each round a reader of its own: every check is a first one, as an entry's first read is
  const readers = [0, 1, 2].map(() => ledgerKeys(seed).keyring);
  return {
    sign: cpuPerCall((i) => void key.sign(text(i))),
    seal: cpuPerCall((i) => void key.seal(text(i), signed[i]!)),
    verify: cpuPerCall((i) => void verifyEd25519(key.publicKey, text(i), signed[i]!)),
    sealCheck: cpuPerCall((i) => {
      if (readers[Math.floor(i / TIMED)]!.verify(key.keyId, text(i), signed[i]!, seals[i]) !== true)
        throw new Error('a sealed signature was not accepted');
    }),
  };
};

const counter = async (origin: string, operatorToken: string, name: string) => {
  const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${operatorToken}` } });
  if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? 0);
};

/** An instance's ledger checks so far: Ed25519 verifications, and signatures taken by their seal. */
const checksSoFar = async (origin: string, operatorToken: string) => ({
  verified: await counter(origin, operatorToken, 'svc_ledger_signatures_verified_total'),
  sealed: await counter(origin, operatorToken, 'svc_ledger_seals_accepted_total'),
});

/** The CPU the service spends per order at `concurrency`, and what the ledger's keys did for those orders, here and on a second instance. */
const measuredOrders = async (ctx: BenchContext, concurrency: number) => {
  const warmup = concurrency === 1 ? WARMUP : 64;
  const orders = concurrency === 1 ? ORDERS : ORDERS * 4;
  const perSeller = Math.ceil((warmup + orders) / concurrency) + 10;
  const { service, serviceEnv, rawRoutes, db, sellers, client, rawClient, operatorToken } = await sandboxService(
    ctx,
    concurrency,
    perSeller,
  );
  const other = await startChild('service-process', serviceEnv);
  try {
    const run = (count: number) =>
      throughput({ warmup: 0, operations: count, concurrency, op: (i) => sandboxOrder(sellers[i % concurrency]!) });
    await run(warmup);
    await service.ask('settled');
    await other.ask('settled');
    const from = (await db.pool.query('select coalesce(max(position), 0) as p from es_events')).rows[0].p;
    const before = await checksSoFar(service.origin, operatorToken);
    const otherBefore = await checksSoFar(other.origin, operatorToken);
    const cpuBefore = service.cpu();
    await run(orders);
    await service.ask('settled');
    const cpuPerOrder = (service.cpu() - cpuBefore) / orders;
    await other.ask('settled');
    const after = await checksSoFar(service.origin, operatorToken);
    const otherAfter = await checksSoFar(other.origin, operatorToken);
    const appended = await db.pool.query(
      `select count(*)::int as n from es_events where position > $1 and stream_id like 'balance-%'`,
      [from],
    );
    return {
      cpuPerOrder,
      verified: (after.verified - before.verified) / orders,
      signed: appended.rows[0].n / orders,
      other: {
        verified: (otherAfter.verified - otherBefore.verified) / orders,
        sealed: (otherAfter.sealed - otherBefore.sealed) / orders,
      },
    };
  } finally {
    await client.close();
    await rawClient.close();
    await other.stop();
    await service.stop();
    await rawRoutes.stop();
  }
};

const signingCost = async (ctx: BenchContext): Promise<Result[]> => {
  const costs = signatureCosts();
  ctx.log(
    `  Ed25519 over an entry text, in this process: sign ${fmt(costs.sign)} µs, verify ${fmt(costs.verify)} µs; its seal ${fmt(costs.seal)} µs, a seal's check on another instance ${fmt(costs.sealCheck)} µs`,
  );
  const results: Result[] = [];
  for (const concurrency of [1, 32]) {
    const { cpuPerOrder, verified, signed, other } = await measuredOrders(ctx, concurrency);
    // what the instance that wrote the orders spent in the window (it verifies none of its own
    // entries again); with the settlement each order posts after the holding period, signed
    // and sealed as its sale was; and with the second instance checking each of the two
    // entries as it checked those of the window (by their seals; a verification where one
    // did not hold)
    const write = costs.sign + costs.seal;
    const spent = signed * write + verified * costs.verify;
    const settled = spent + (ENTRIES_PER_ORDER - signed) * write;
    const read = other.sealed + other.verified;
    const perRead = read > 0 ? (other.sealed * costs.sealCheck + other.verified * costs.verify) / read : costs.verify;
    const elsewhere = settled + ENTRIES_PER_ORDER * perRead;
    const more = (cpu: number) => `${((cpu / (cpuPerOrder - cpu)) * 100).toFixed(1)} %`;
    ctx.log(
      `  concurrency ${concurrency}, per order: ${fmt(signed)} entries signed and sealed, ${fmt(verified)} signatures verified: ${fmt(spent)} µs of ${fmt(cpuPerOrder)} µs CPU of the service, ${more(spent)} more than the order without them; with its settlement ${more(settled)}`,
    );
    ctx.log(
      `  concurrency ${concurrency}, the second instance per order: ${fmt(other.sealed)} signatures taken by their seal, ${fmt(other.verified)} verified${read > 0 ? '' : ' (it read none: a verification per entry is counted)'}; with it checking both entries ${more(elsewhere)} (the bound is 10 %)`,
    );
    const row = (what: string, cpu: number): Result => ({
      work: `sandbox orders, concurrency ${concurrency}, in orders per CPU second of the service process: ${what}; raw: the same orders without it (the service ${more(cpu)} above)`,
      unit: 'orders',
      service: 1e6 / cpuPerOrder,
      raw: 1e6 / (cpuPerOrder - cpu),
      cpu: { service: cpuPerOrder, raw: cpuPerOrder - cpu, serviceServer: 0, rawServer: 0 },
    });
    results.push(
      row(
        `signing and verifying as measured (${fmt(signed)} entry signed and sealed, ${fmt(verified)} signatures verified per order; Ed25519 ${fmt(costs.sign)} µs / ${fmt(costs.verify)} µs, seal ${fmt(costs.seal)} µs)`,
        spent,
      ),
      row(`with the settlement signed after the holding period (${ENTRIES_PER_ORDER} entries per order)`, settled),
      row(
        `with another instance checking each of the ${ENTRIES_PER_ORDER} entries once (as the second instance did: ${fmt(other.sealed)} by seal, ${fmt(other.verified)} verified per order; a seal's check ${fmt(costs.sealCheck)} µs)`,
        elsewhere,
      ),
    );
  }
  return results;
};

export const ledgerSigningBenchmarks: Benchmark[] = [
  {
    name: 'orders.signing',
    description: "signing and verifying ledger entries: their CPU per sandbox order beside the order's own",
    run: signingCost,
  },
];
