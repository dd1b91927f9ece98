import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { createUploaded, textKeys, upload } from '../offers/fixtures.js';
import { eventually } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * A real Prometheus (Debian's package; .ci/run installs it) scraping a service instance
 * with the shipped rules: the target is up, the request and order metrics move as sandbox
 * orders are placed, the process families are there, every query of the Grafana dashboard
 * evaluates, and the rules load.
 */
const root = path.resolve(import.meta.dirname, '../..');
const installed = await promisify(execFile)('prometheus', ['--version']).then(
  () => true,
  () => false,
);
if (!installed) console.log('Prometheus test skipped: no prometheus binary (Debian package prometheus)');

interface QueryAnswer {
  status: string;
  error?: string;
  data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
}

describe.skipIf(!installed)('a real Prometheus scraping the service', () => {
  let svc: TestService;
  let dir: string;
  let prometheus: ChildProcess;
  let base: string;

  const query = async (expr: string): Promise<QueryAnswer> => {
    const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`);
    return (await res.json()) as QueryAnswer;
  };
  const value = async (expr: string) => Number((await query(expr)).data.result[0]?.value[1] ?? Number.NaN);
  /** Waits for the next scrape to have happened after now. */
  const nextScrape = async () => {
    const before = await value('max(timestamp(up{job="svc-marketplace"}))');
    await eventually('a new scrape', async () => (await value('max(timestamp(up{job="svc-marketplace"}))')) > before, {
      timeoutMs: 30_000,
      everyMs: 200,
    });
  };

  beforeAll(async () => {
    svc = await startTestService();
    dir = await mkdtemp(path.join(os.tmpdir(), 'svc-prometheus-'));
    await copyFile(path.join(root, 'deploy/prometheus/alerts.yml'), path.join(dir, 'alerts.yml'));
    await writeFile(path.join(dir, 'operator-token'), svc.operatorToken);
    // the shipped configuration, pointed at this instance and scraping every second
    const shipped = await readFile(path.join(root, 'deploy/prometheus/prometheus.yml'), 'utf8');
    await writeFile(
      path.join(dir, 'prometheus.yml'),
      shipped
        .replace(/scrape_interval: 15s/, 'scrape_interval: 1s')
        .replace(/evaluation_interval: 15s/, 'evaluation_interval: 1s')
        .replace("'127.0.0.1:8080'", `'${new URL(svc.origin).host}'`),
    );
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    await eventually(
      'Prometheus to scrape the instance',
      async () => (await value('up{job="svc-marketplace"}').catch(() => 0)) === 1,
      { timeoutMs: 60_000, everyMs: 200 },
    );
  }, 120_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    if (prometheus && prometheus.exitCode === null) await new Promise((resolve) => prometheus.once('exit', resolve));
    await svc?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sees the target up, its process families, and the request and order metrics move', async () => {
    expect(await value('up{job="svc-marketplace"}')).toBe(1);
    for (const family of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_open_fds',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'svc_db_pool_connections',
      'svc_projection_lag_seconds',
      'svc_ready',
    ])
      expect((await query(family)).data.result.length, family).toBeGreaterThan(0);
    expect(await value('svc_ready')).toBe(1);

    const requestsBefore = await value('sum(svc_http_requests_total{route="/api/v1/sandbox/orders"})');
    const supplier = await svc.newSupplier();
    const offer = await createUploaded(supplier.api, (await svc.newProduct()).id);
    expect((await supplier.api.post(`/offers/${offer.id}/activate`)).status).toBe(200);
    await upload(supplier.api, offer.id, textKeys('PROM', 5));
    for (let i = 0; i < 5; i++) {
      const order = await supplier.api.post('/sandbox/orders', {
        offer_id: offer.id,
        quantity: 1,
        buyer_country: 'DE',
      });
      expect(order.status, order.text).toBe(201);
    }
    await svc.drain();
    await nextScrape();
    const requestsAfter = await value('sum(svc_http_requests_total{route="/api/v1/sandbox/orders",status="201"})');
    expect(requestsAfter - (Number.isNaN(requestsBefore) ? 0 : requestsBefore)).toBe(5);
    expect(await value('svc_orders{state="completed"}')).toBe(5);
  });

  it('evaluates every query of the Grafana dashboard without an error', async () => {
    const dashboard = JSON.parse(await readFile(path.join(root, 'docs/grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));
    expect(exprs.length).toBeGreaterThan(20);
    const failed: string[] = [];
    for (const { panel, expr } of exprs) {
      const answer = await query(expr);
      if (answer.status !== 'success') failed.push(`${panel}: ${expr}: ${answer.error}`);
    }
    expect(failed).toEqual([]);
  });

  it('loads the shipped alert rules, healthy, and none fires on a quiet instance', async () => {
    const res = (await (await fetch(`${base}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string; state: string }[] }[] };
    };
    const rules = res.data.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.name).sort()).toEqual([
      'SvcEventLoopLag',
      'SvcInstanceNotReady',
      'SvcLedgerCheckpointMissing',
      'SvcProjectionBehind',
      'SvcReplicaLagging',
      'SvcServerErrors',
      'SvcStoreRewound',
      'SvcWebhookBacklogGrowing',
    ]);
    expect(rules.filter((r) => r.health !== 'ok')).toEqual([]);
  });
});
