import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterState, leaderOf, switchover, until } from '../../src/cli/ha/cluster.js';
import { spawnService } from '../faults/support.js';
import { request } from '../support/http.js';
import { haSkipReason, promotions, startCluster, type TestCluster } from './cluster.js';
import {
  firstWriteAfter,
  type Keyed,
  type Read,
  startReads,
  startTraffic,
  type Target,
  writeWindow,
} from './traffic.js';
import { expectNothingLost, setUpSeller } from './world.js';

/**
 * Two instances on a three-member Patroni cluster (synchronous replication, HAProxy), keyed
 * sandbox orders and storefront checkouts on both, reads from the replicas throughout; then
 * the primary is killed hard, the killed member comes back, and a switchover is made on the
 * whole cluster.
 */
const skip = await haSkipReason();
if (skip) console.log(skip);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Every read answers within this, at every moment of a failover (docs/scaling.md). */
const READ_MS = 2000;
/** Writes answer again within this of the new leader's promotion, as Patroni records it. */
const WRITES_BACK_MS = 3000;
/** Answered in time, with the offer or with a 503 that says when to retry. */
const readAnswered = (r: Read) =>
  r.doneAt - r.sentAt <= READ_MS && ((r.status >= 200 && r.status < 300) || (r.status === 503 && !!r.retryAfter));
type Instance = Awaited<ReturnType<typeof spawnService>>;

describe.skipIf(skip !== undefined)('a Patroni cluster under two instances', () => {
  let cluster: TestCluster;
  const instances: Instance[] = [];
  let target: Target;
  /** Every key of every phase: the orders they made accumulate. */
  const keys: Keyed[] = [];

  const startInstance = async () => {
    const instance = await spawnService({
      databaseUrl: cluster.env.DATABASE_URL!,
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'svc-ha-instance-')),
      operatorToken: cluster.cluster.operatorToken,
      secretKey: cluster.cluster.secretKey,
      testClock: false,
      env: {
        DATABASE_READ_URL: cluster.env.DATABASE_READ_URL!,
        SVC_LEDGER_SIGNING_KEY: cluster.cluster.ledgerSigningKey,
      },
    });
    instances.push(instance);
    for (let i = 0; i < 600; i++) {
      const ready = await request(instance.origin, 'GET', '/readyz').catch(() => undefined);
      if (ready?.status === 200) return instance;
      await sleep(100);
    }
    throw new Error(`instance not ready:\n${instance.output()}`);
  };

  const expectInstancesReady = async () => {
    for (const instance of instances) {
      expect(instance.child.exitCode).toBe(null);
      expect((await request(instance.origin, 'GET', '/readyz')).status).toBe(200);
    }
  };

  /**
   * Runs traffic and reads around `failure`, then checks what it may never cost. When the
   * failure promotes a leader, writes must be back within WRITES_BACK_MS of the promotion.
   */
  const underLoad = async (what: string, failure: () => Promise<void>, promotes = false) => {
    const before = promotes ? await promotions(cluster.cluster) : [];
    const reads = startReads(target);
    const traffic = startTraffic(target, 8);
    await sleep(3000);
    const at = Date.now();
    await failure();
    const recovered = Date.now();
    await sleep(4000);
    keys.push(...(await traffic.stop()));
    await reads.stop();
    const window = writeWindow(traffic.keys, at);
    const lastAnswer = Math.max(...traffic.keys.map((k) => k.ackAt ?? Infinity));
    const promotion = promotes
      ? await until("the promotion in Patroni's history", 30_000, async () =>
          (await promotions(cluster.cluster)).find((p) => !before.some((b) => b.timeline === p.timeline)),
        )
      : undefined;
    const writesBack = promotion ? firstWriteAfter(traffic.keys, at, promotion.at) - promotion.at : undefined;
    const slowest = Math.max(...reads.all.map((r) => r.doneAt - r.sentAt));
    const unavailable = reads.all.filter((r) => r.status === 503);
    console.log(
      `${what}: writes unavailable ${window.ms} ms (last 2xx before it to the first 2xx of a request sent after it)` +
        (promotion
          ? `, back ${writesBack} ms after ${promotion.leader}'s promotion (${promotion.at - at} ms after the failure began)`
          : '') +
        `; ${traffic.keys.length} keys, the last answered ${Math.max(0, lastAnswer - recovered)} ms after recovery; ` +
        `${reads.all.length} reads, the slowest ${slowest} ms, ${unavailable.length} answered 503, ${reads.failures.length - unavailable.length} failed otherwise`,
    );
    const wrong = reads.all.filter((r) => !readAnswered(r));
    for (const r of wrong)
      console.log(
        `  read on instance ${r.instance} sent ${r.sentAt - at} ms after the failure began: ${r.status} in ${r.doneAt - r.sentAt} ms ${r.text.slice(0, 200)}`,
      );
    if (wrong.length > 0)
      for (const instance of instances) console.log(instance.output().split('\n').slice(-40).join('\n'));
    await expectInstancesReady();
    await expectNothingLost(target, keys, cluster.env);
    // every read answered within READ_MS, with its offer or a 503 that says when to retry
    expect(wrong).toEqual([]);
    if (promotion) expect(writesBack).toBeLessThanOrEqual(WRITES_BACK_MS);
    expect(lastAnswer - recovered).toBeLessThanOrEqual(60_000);
    return window;
  };

  beforeAll(async () => {
    cluster = await startCluster();
    const first = await startInstance();
    const second = await startInstance();
    target = {
      ...(await setUpSeller(first.origin, cluster.cluster.operatorToken, 4000)),
      origins: [first.origin, second.origin],
    };
  }, 600_000);

  afterAll(async () => {
    for (const instance of instances) {
      instance.child.kill('SIGTERM');
      await instance.exited;
    }
    await cluster?.stop();
  }, 120_000);

  let killed: string;

  it('loses its primary to SIGKILL: writes resume on the new primary, nothing acknowledged is lost or doubled', async () => {
    const window = await underLoad(
      'unplanned primary loss',
      async () => {
        killed = await cluster.killLeader();
        await until('a new leader', 120_000, async () => {
          const leader = leaderOf(await clusterState(cluster.cluster));
          return leader && leader.name !== killed ? true : undefined;
        });
      },
      true,
    );
    // the goal is 10 s (Patroni's leader key lives 6 s); a busy machine may add its checks' delays
    expect(window.ms).toBeLessThanOrEqual(20_000);
  }, 600_000);

  it('takes the killed member back as a replica while orders go on', async () => {
    await underLoad('killed member back', async () => {
      await cluster.restart(killed);
      await cluster.whole();
    });
    const members = await clusterState(cluster.cluster);
    expect(members.find((m) => m.name === killed)?.role).toMatch(/replica|sync_standby/);
  }, 600_000);

  it('switches over as planned: writes pause briefly, nothing acknowledged is lost or doubled', async () => {
    const window = await underLoad(
      'planned switchover',
      async () => {
        await switchover(cluster.cluster, () => undefined);
      },
      true,
    );
    expect(window.ms).toBeLessThanOrEqual(10_000);
  }, 600_000);
});
