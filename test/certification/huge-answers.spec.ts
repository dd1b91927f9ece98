import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, spawnService } from '../faults/support.js';
import { MB, memoryOf, startHugeAnswers } from '../net/huge-answers.js';
import { createDeclared } from '../offers/fixtures.js';
import { createTestDatabase } from '../support/database.js';
import { client, request } from '../support/http.js';

/**
 * The service as a real process, certifying an offer whose supplier answers every call with
 * 100 MB: three certifications at once through POST /offers/{id}/certification. Each call
 * is read up to its limit and fails too_large; the process's memory stays where it was and
 * /healthz keeps answering throughout, each time within 5 s (read whole, one such run took
 * the service from 152 MB to 2.6 GB, and it stayed there).
 */

const OPERATOR_TOKEN = `svc_op_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');

describe('certification against a supplier answering 100 MB bodies', () => {
  let service: Awaited<ReturnType<typeof spawnService>>;
  let huge: Awaited<ReturnType<typeof startHugeAnswers>>;
  let dataDir: string;

  beforeAll(async () => {
    huge = await startHugeAnswers(100 * MB);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'marketplace-huge-'));
    await chmod(dataDir, 0o755);
    service = await spawnService({
      databaseUrl: await createTestDatabase(),
      dataDir,
      operatorToken: OPERATOR_TOKEN,
      secretKey: SECRET_KEY,
      testClock: false,
      env: { SVC_ALLOW_PRIVATE_TARGETS: '1' },
    });
  }, 120_000);
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await huge?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 240_000);

  it('three at once: each call fails too_large, the memory stays within 150 MB of its start, /healthz keeps answering', async () => {
    const operator = client(`${service.origin}/operator/v1`, OPERATOR_TOKEN);
    const created = await operator.post('/suppliers', { name: 'Huge Answers' });
    expect(created.status, created.text).toBe(201);
    const supplier = client(service.baseUrl, created.body.token);
    const product = await operator.post('/products', {
      name: 'Huge Quest',
      type: 'game_key',
      platform: 'steam',
      region: 'EU',
      status: 'sellable',
    });
    expect(product.status, product.text).toBe(201);
    const offer = await createDeclared(supplier, product.body.id, huge.url, { declared_stock: 5 });
    const pid = service.child.pid!;
    const start = memoryOf(pid);

    const samples: { rss: number; healthzMs: number; status: number }[] = [];
    let running = true;
    const sampling = (async () => {
      while (running) {
        const before = performance.now();
        const res = await request(service.origin, 'GET', '/healthz');
        samples.push({ rss: memoryOf(pid).rss, healthzMs: performance.now() - before, status: res.status });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const reports = await Promise.all([1, 2, 3].map(() => supplier.post(`/offers/${offer.id}/certification`))).finally(
      () => (running = false),
    );
    await sampling;

    // the kernel's peak catches what fell between two samples, once it passed the start's peak
    const end = memoryOf(pid);
    const highest = Math.max(...samples.map((s) => s.rss), end.rss, end.peak > start.peak ? end.peak : 0);
    const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
    expect(highest - start.rss, `from ${mb(start.rss)} to ${mb(highest)}`).toBeLessThan(150 * MB);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.map((s) => s.status).filter((s) => s !== 200)).toEqual([]);
    // the process kept answering while it read: a bound a busy machine meets (one second
    // was missed by 34 ms in a CI run beside the suite's other workers). A body read whole
    // is told by the memory bound above, not by this one
    const slowest = Math.max(...samples.map((s) => s.healthzMs));
    expect(slowest, `/healthz answered in up to ${Math.round(slowest)} ms`).toBeLessThan(5000);
    for (const report of reports) {
      expect(report.status, report.text).toBe(200);
      expect(report.body.passed).toBe(false);
      const failures = report.body.checks.flatMap((c: any) => c.exchanges.map((e: any) => e.failure?.reason));
      expect(failures.length).toBeGreaterThan(0);
      expect(new Set(failures)).toEqual(new Set(['too_large']));
    }
    // every answer was cut off by the service, not read to its end
    await eventually('every answer closed', async () =>
      huge.answers.every((a) => a.closedEarly) && huge.answers.length >= 12 ? true : undefined,
    );
    for (const a of huge.answers) expect(a.written).toBeLessThan(32 * MB);
  }, 240_000);
});
