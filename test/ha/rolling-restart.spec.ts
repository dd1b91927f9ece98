import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, startDetached, stopNamed } from '../../src/cli/ha/processes.js';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { spawnService } from '../faults/support.js';
import { type Answer, request } from '../support/http.js';
import { haSkipReason } from './cluster.js';
import { setUpSeller } from './world.js';

/**
 * Three instances behind HAProxy, restarted one at a time under keyed order traffic and
 * reads: a stopping instance says so on /readyz and keeps answering for SVC_STOP_GRACE_MS
 * (longer than the proxy takes to see it), then drains. Every request gets a 2xx, or a 503
 * with Retry-After that succeeds when retried with its key.
 */
const skip = await haSkipReason();
if (skip) console.log(skip);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Instance = Awaited<ReturnType<typeof spawnService>>;
const GRACE_MS = 1500;

const haproxyConfig = (port: number, servers: number[]) => `global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout check 1s
    option http-buffer-request
    # a connection refused or cut, or a closing instance's 503, is tried again on another
    # instance: every request carries its Idempotency-Key, so a replay is safe
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response 503
frontend api
    bind 127.0.0.1:${port}
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 200ms fall 1 rise 2
${servers.map((p, i) => `    server i${i} 127.0.0.1:${p} check`).join('\n')}
`;

describe.skipIf(skip !== undefined)('a rolling restart of three instances behind a proxy', () => {
  let dir: string;
  let database: EmbeddedDatabase;
  let databaseUrl: string;
  const ports: number[] = [];
  const instances: Instance[] = [];
  let proxy: string;
  const secrets = { operatorToken: randomUUID().replaceAll('-', ''), secretKey: 'ab'.repeat(32) };

  const start = async (i: number) => {
    const instance = await spawnService({
      databaseUrl,
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'svc-rolling-instance-')),
      ...secrets,
      testClock: false,
      env: { PORT: String(ports[i]), SVC_STOP_GRACE_MS: String(GRACE_MS) },
    });
    instances[i] = instance;
    for (let n = 0; n < 600; n++) {
      if ((await request(instance.origin, 'GET', '/readyz').catch(() => undefined))?.status === 200) return;
      await sleep(100);
    }
    throw new Error(`instance ${i} not ready:\n${instance.output()}`);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'svc-rolling-'));
    await chmod(dir, 0o755);
    database = await startEmbeddedPostgres(path.join(dir, 'pg'));
    const admin = new pg.Client({ connectionString: database.adminUrl });
    await admin.connect();
    await admin.query('create database marketplace');
    await admin.end();
    databaseUrl = database.urlFor('marketplace');
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    const proxyPort = await freePort();
    await writeFile(path.join(dir, 'haproxy.cfg'), haproxyConfig(proxyPort, ports));
    await startDetached(dir, 'haproxy', 'haproxy', ['-db', '-f', path.join(dir, 'haproxy.cfg')], {});
    for (let i = 0; i < 3; i++) await start(i);
    proxy = `http://127.0.0.1:${proxyPort}`;
    for (let n = 0; (await request(proxy, 'GET', '/readyz').catch(() => undefined))?.status !== 200; n++) {
      if (n > 100) throw new Error('the proxy does not reach the instances');
      await sleep(100);
    }
  }, 300_000);

  afterAll(async () => {
    for (const instance of instances) {
      instance?.child.kill('SIGTERM');
      await instance?.exited;
    }
    if (dir) await stopNamed(dir, 'haproxy', 5000);
    await database?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('restarts each instance under load: no request fails without a Retry-After, every key is answered', async () => {
    // enough keys that the paced writers never run the offer out of stock (a 409 that is no failover's)
    const t = await setUpSeller(proxy, secrets.operatorToken, 8000);
    const answers: { status: number; retryAfter: string | null; key?: string; code?: string }[] = [];
    const retried = new Map<string, boolean>();
    let stopping = false;
    const send = (key: string) =>
      request(proxy, 'POST', '/api/v1/sandbox/orders', {
        token: t.supplierToken,
        headers: { 'idempotency-key': key },
        body: { offer_id: t.offerId, quantity: 1, buyer_country: 'DE' },
      }).catch((error: unknown) => ({ status: 0, headers: new Headers(), text: String(error) }) as Answer);
    const writers = Array.from({ length: 6 }, async () => {
      while (!stopping) {
        const key = randomUUID();
        const first = await send(key);
        answers.push({
          status: first.status,
          retryAfter: first.headers.get('retry-after'),
          key,
          code: (first.body as { code?: string } | undefined)?.code,
        });
        if (first.status === 503 && first.headers.get('retry-after')) {
          await sleep(Number(first.headers.get('retry-after')) * 1000);
          retried.set(key, (await send(key)).status === 201);
        }
        // about 60 orders a second over the six writers: a load, not a stock-out
        await sleep(100);
      }
    });
    const readers = Array.from({ length: 2 }, async () => {
      while (!stopping) {
        const read = await request(proxy, 'GET', `/api/v1/offers/${t.offerId}`, { token: t.supplierToken }).catch(
          (error: unknown) => ({ status: 0, headers: new Headers(), text: String(error) }) as Answer,
        );
        answers.push({ status: read.status, retryAfter: read.headers.get('retry-after') });
        await sleep(20);
      }
    });
    await sleep(2000);
    const restarts: number[] = [];
    const stopped: Instance[] = [];
    for (let i = 0; i < 3; i++) {
      const began = Date.now();
      const old = instances[i]!;
      stopped.push(old);
      old.child.kill('SIGTERM');
      const exit = await old.exited;
      expect(exit.code).toBe(0);
      expect(alive(old.child.pid!)).toBe(false);
      await start(i);
      restarts.push(Date.now() - began);
      await sleep(1000);
    }
    stopping = true;
    await Promise.all([...writers, ...readers]);
    const failed = answers.filter((a) => !(a.status >= 200 && a.status < 300) && !(a.status === 503 && a.retryAfter));
    const retriedFailed = [...retried].filter(([, ok]) => !ok);
    console.log(
      `rolling restart: ${answers.length} requests, ${answers.filter((a) => a.status === 503).length} answered 503 with Retry-After ` +
        `(all succeeded retried: ${retriedFailed.length === 0}), ${failed.length} failed otherwise; restarts took ${restarts.join(', ')} ms`,
    );
    if (failed.length > 0)
      for (const instance of [...instances, ...stopped])
        console.log(
          instance
            .output()
            .split('\n')
            .filter((line) => line.includes('"level":50'))
            .join('\n'),
        );
    expect(failed).toEqual([]);
    expect(retriedFailed).toEqual([]);
    expect(answers.filter((a) => a.key && a.status === 201).length).toBeGreaterThan(50);
  }, 600_000);
});
