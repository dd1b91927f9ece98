import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService } from '../faults/support.js';
import { createTestDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';

/**
 * Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT): the service, in a process of its own as it is
 * run, exports its spans over OTLP/HTTP to a collector; here a real HTTP server that decodes
 * OTLP's JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). A sandbox order's request is
 * one trace: the request's span, the statements it sent beneath it, and (through the trace
 * context its events carry in their metadata) the projections that applied them and the
 * webhook deliveries they caused (a retry too), and the timers they scheduled, to a receiver
 * of the test's.
 */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  links?: { traceId: string; spanId: string }[];
  attributes: { key: string; value: { stringValue?: string; intValue?: string } }[];
}

const operatorToken = 'otlp-operator-token-0123456789';
const secretKey = 'ab'.repeat(32);

describe('traces exported to an OTLP collector', () => {
  let collector: Server;
  const spans: Span[] = [];
  const paths: string[] = [];
  let dataDir: string;
  let collectorUrl: string;
  let hooksSeen = 0;
  let instance: Awaited<ReturnType<typeof spawnService>>;

  beforeAll(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/hooks') {
          hooksSeen++;
          // the first delivery fails: its retry must be a step of the same trace
          return void res.writeHead(hooksSeen === 1 ? 503 : 204).end();
        }
        paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        const sent = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
        for (const r of sent.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-otlp-'));
    instance = await spawnService({
      databaseUrl: await createTestDatabase(),
      dataDir,
      operatorToken,
      secretKey,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        SVC_ALLOW_PRIVATE_TARGETS: '1',
      },
    });
  });

  afterAll(async () => {
    instance?.child.kill('SIGTERM');
    await instance?.exited;
    collector?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("sends a sandbox order's request as one trace: the request's span, its statements, the projections, webhook deliveries (a retry too) and timers its events caused", async () => {
    const op = (method: string, url: string, body?: unknown) =>
      request(instance.origin, method, `/operator/v1${url}`, { token: operatorToken, body });
    const made = await op('POST', '/suppliers', { name: 'Traced Keys' });
    expect(made.status).toBe(201);
    const api = (method: string, url: string, body?: unknown) =>
      request(instance.origin, method, `/api/v1${url}`, { token: made.body.token, body });
    const product = await op('POST', '/products', {
      name: 'Traced Edition',
      type: 'game_key',
      platform: 'pc',
      region: 'EU',
      status: 'sellable',
    });
    const offer = await api('POST', '/offers', {
      product_id: product.body.id,
      stock_mode: 'uploaded',
      price: { amount: 1000, currency: 'EUR' },
      external_ref: 'OTLP-1',
    });
    expect(offer.status).toBe(201);
    expect(
      (await api('POST', `/offers/${offer.body.id}/inventory`, { items: [{ kind: 'text', value: 'K-1' }] })).status,
    ).toBe(201);
    expect((await api('POST', `/offers/${offer.body.id}/activate`)).status).toBe(200);
    const hooks = await api('POST', '/webhooks', { url: `${collectorUrl}/hooks`, events: ['*'] });
    expect(hooks.status, hooks.text).toBe(201);
    const order = await api('POST', '/sandbox/orders', { offer_id: offer.body.id, quantity: 1, buyer_country: 'DE' });
    expect(order.status, order.text).toBe(201);

    const route = (s: Span) => s.attributes.find((a) => a.key === 'http.route')?.value.stringValue;
    const requestSpan = await eventually(
      "the sandbox order's request span",
      async () => spans.find((s) => s.kind === 2 && route(s) === '/api/v1/sandbox/orders') ?? false,
      { timeoutMs: 30_000, everyMs: 100 },
    );
    expect(paths[0]).toBe('POST /v1/traces application/json');
    // its statements (pg's spans) in the same trace, each beneath a span of the request's
    await eventually(
      "the request's statements",
      async () => spans.some((s) => s.traceId === requestSpan.traceId && s.name.startsWith('pg.query')),
      { timeoutMs: 30_000, everyMs: 100 },
    );
    // every other span of the trace hangs beneath one of its spans: one tree from the request
    // (a span is exported when it ends, after its children: a step still running, such as a
    // timer's run the request scheduled, is awaited)
    const orphans = () => {
      const inTrace = spans.filter((s) => s.traceId === requestSpan.traceId);
      const ids = new Set(inTrace.map((s) => s.spanId));
      return inTrace.filter((s) => s.spanId !== requestSpan.spanId && !ids.has(s.parentSpanId ?? ''));
    };
    await eventually('one tree from the request', () => orphans().length === 0, { timeoutMs: 30_000, everyMs: 100 });
    const inTrace = spans.filter((s) => s.traceId === requestSpan.traceId);
    expect(inTrace.filter((s) => s.name.startsWith('pg.')).length).toBeGreaterThan(0);

    // the projections that applied its events: a step of its trace, or (batched with
    // another trace's events) a span linked to it; their statements beneath them
    const projection = await eventually(
      "the projection of the order's events",
      async () =>
        spans.find(
          (s) =>
            s.name === 'projections.apply' &&
            (s.traceId === requestSpan.traceId || s.links?.some((l) => l.traceId === requestSpan.traceId)),
        ) ?? false,
      { timeoutMs: 30_000, everyMs: 100 },
    );
    expect(spans.some((s) => s.parentSpanId === projection.spanId && s.name.startsWith('pg.query'))).toBe(true);
    // its webhook deliveries: each a step of its trace, the POST beneath it; the first one
    // failed and was sent again after the ladder's pause, the clock moved past it
    await eventually('the first attempt', () => hooksSeen >= 1, { timeoutMs: 30_000, everyMs: 100 });
    expect((await op('POST', '/clock/advance', { seconds: 120 })).status).toBe(200);
    await eventually('the deliveries and the retry', () => hooksSeen >= 3, { timeoutMs: 30_000, everyMs: 100 });
    const posts = () =>
      spans.filter(
        (s) =>
          s.kind === 3 &&
          s.traceId === requestSpan.traceId &&
          s.attributes.some((a) => a.key === 'url.full' && a.value.stringValue === `${collectorUrl}/hooks`),
      );
    await eventually('every delivery in the trace', () => posts().length === hooksSeen, {
      timeoutMs: 30_000,
      everyMs: 100,
    });
    const delivering = new Map(spans.filter((s) => s.name === 'webhook.deliver').map((s) => [s.spanId, s]));
    expect(posts().map((p) => delivering.get(p.parentSpanId ?? '')?.traceId)).toEqual(
      posts().map(() => requestSpan.traceId),
    );

    // the timers its events scheduled (the sale's settlement after the hold, among them):
    // each run a step of the trace of the span that scheduled it, which is the order's or
    // (a batch of several orders' events) linked to it
    expect((await op('POST', '/clock/advance', { seconds: 24 * 3600 })).status).toBe(200);
    const linkedTraces = () =>
      new Set([
        requestSpan.traceId,
        ...spans.filter((s) => s.links?.some((l) => l.traceId === requestSpan.traceId)).map((s) => s.traceId),
      ]);
    const kindOf = (s: Span) => s.attributes.find((a) => a.key === 'svc.timer_kind')?.value.stringValue;
    const timerRuns = await eventually(
      "the order's timers",
      async () => {
        const runs = spans.filter((s) => s.name === 'timer.run' && linkedTraces().has(s.traceId));
        return runs.some((s) => kindOf(s) === 'ledger.settle') ? runs : false;
      },
      { timeoutMs: 30_000, everyMs: 100 },
    );
    const settle = timerRuns.find((s) => kindOf(s) === 'ledger.settle');
    await eventually(
      "the settlement's statements beneath its run",
      () => spans.some((s) => s.parentSpanId === settle?.spanId && s.name.startsWith('pg.')),
      { timeoutMs: 30_000, everyMs: 100 },
    );
  });
});
