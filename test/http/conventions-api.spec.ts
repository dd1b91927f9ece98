import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { client, request } from '../support/http.js';

const events = async (svc: TestService) =>
  Number(
    (
      (await svc.services.db
        .selectFrom('es_events' as any)
        .select((eb: any) => eb.fn.countAll().as('n'))
        .executeTakeFirst()) as any
    ).n,
  );

describe('the API surface', () => {
  let svc: TestService;
  let withClock: TestService;
  beforeAll(async () => {
    [svc, withClock] = await Promise.all([startTestService(), startTestService({ testClockEndpoint: true })]);
  });
  afterAll(() => Promise.all([svc.stop(), withClock.stop()]));

  it('serves an OpenAPI 3.1 document with every route, and a browsable reference', async () => {
    const doc = await request(svc.baseUrl, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.body.paths);
    for (const p of [
      '/api/v1/whoami',
      '/api/v1/products',
      '/api/v1/products/{product_id}',
      '/api/v1/offers',
      '/api/v1/offers/{offer_id}',
      '/api/v1/offers/{offer_id}/inventory',
      '/api/v1/offers/{offer_id}/activate',
      '/api/v1/offers/{offer_id}/stock',
      '/api/v1/offers/{offer_id}/price',
      '/api/v1/offers/{offer_id}/fulfilment/check',
      '/api/v1/pricing/simulate',
      '/api/v1/fees',
      '/api/v1/orders',
      '/api/v1/orders/{order_id}',
      '/api/v1/sandbox/orders',
      '/api/v1/balance',
      '/api/v1/balance/entries',
      '/operator/v1/suppliers',
      '/operator/v1/products',
      '/operator/v1/orders',
      '/operator/v1/orders/{order_id}/pay',
    ])
      expect(paths).toContain(p);
    const create = doc.body.paths['/api/v1/offers'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '409', '422', '429']));
    expect(create.requestBody.content['application/json'].schema).toBeDefined();
    const page = await request(svc.baseUrl, 'GET', '/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('Swagger UI');
    // the reference page and its assets need no token either
    expect((await request(svc.baseUrl, 'GET', '/docs')).status).toBe(200);
    expect((await request(svc.baseUrl, 'GET', '/docs/static/swagger-ui.css')).status).toBe(200);
  });

  it('the document lists exactly the routes the service answers, each with its schemas, headers and problems', async () => {
    const doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
    const documented = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );

    // the routes fastify has, read from its route tree (HEAD twins and the hidden ones aside)
    const served: string[] = [];
    const parents: string[] = [];
    for (const line of svc.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line);
      if (!m) continue;
      const depth = m[1]!.length / 4;
      const path = (parents[depth - 1] ?? '') + m[2];
      parents[depth] = path;
      for (const method of m[3]!.split(', '))
        if (method !== 'HEAD') served.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
    // the pages for people (the home page and the documents) are not the API's
    const hidden = (route: string) =>
      /^(GET|POST) \/console|^GET (\/healthz|\/readyz|\/metrics|\/api\/v1\/openapi\.json|\/api\/v1\/docs|\/$|\/docs($|\/))/.test(
        route,
      );
    expect(served.length).toBeGreaterThan(40);
    expect(documented.sort()).toEqual(served.filter((r) => !hidden(r)).sort());

    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const route = `${method.toUpperCase()} ${path}`;
        expect(op.summary, route).toEqual(expect.any(String));
        const statuses = Object.keys(op.responses);
        const success = statuses.filter((s) => s.startsWith('2'));
        expect(success, route).toHaveLength(1);
        const ok = op.responses[success[0]!];
        if (success[0] !== '204') expect(ok.content['application/json'].schema, route).toBeDefined();
        expect(Object.keys(ok.headers), route).toEqual(
          expect.arrayContaining(['x-trace-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
        );
        const isPublic = Array.isArray(op.security) && op.security.length === 0;
        if (!isPublic) expect(statuses, route).toEqual(expect.arrayContaining(['401', '429']));
        for (const s of statuses.filter((x) => Number(x) >= 400))
          expect(op.responses[s].content, `${route} ${s}`).toEqual({
            'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
          });
        if (op.responses['429']) expect(Object.keys(op.responses['429'].headers), route).toContain('retry-after');
        if (op.requestBody) expect(op.requestBody.content['application/json'].schema, route).toBeDefined();
      }
    }
    // bodies are documented where routes take one, and path ids as parameters
    for (const route of [
      'POST /operator/v1/suppliers',
      'POST /operator/v1/products',
      'PATCH /operator/v1/products/{product_id}',
      'POST /api/v1/offers',
      'PUT /api/v1/offers/{offer_id}/stock',
    ]) {
      const [method, path] = route.split(' ');
      expect(doc.paths[path!][method!.toLowerCase()].requestBody, route).toBeDefined();
    }
    expect(doc.paths['/api/v1/products/{product_id}'].get.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'product_id', required: true }),
    ]);
    expect(doc.paths['/api/v1/products'].get.parameters.map((p: any) => p.name).sort()).toEqual([
      'cursor',
      'limit',
      'type',
    ]);
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail', 'code', 'trace_id']);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('operator API: suppliers, tokens, products with form fields, and their errors', async () => {
    const created = await svc.operator.post('/suppliers', { name: '  Keys & Co  ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      supplier: { id: expect.any(String), name: 'Keys & Co' },
      token: expect.stringMatching(/^svc_test_/),
      token_id: expect.any(String),
    });
    expect((await svc.operator.post(`/suppliers/${created.body.supplier.id}/tokens`)).status).toBe(201);
    expect((await svc.operator.post('/suppliers/unknown/tokens')).status).toBe(404);

    const fields = [
      { key: 'user_id', label: 'Player ID', type: 'text', required: true, pattern: '^[0-9]{6}$', max_length: 6 },
      { key: 'server', label: 'Server', type: 'select', required: true, options: [{ value: 'eu', label: 'Europe' }] },
    ];
    const topup = await svc.operator.post('/products', {
      name: 'Gems',
      type: 'topup',
      platform: 'mobile',
      region: 'GLOBAL',
      status: 'sellable',
      form_fields: fields,
    });
    expect(topup.status).toBe(201);
    expect(topup.body.form_fields[0]).toEqual({ ...fields[0], help_text: null, options: null });
    expect(topup.body.form_fields[1]).toEqual({ ...fields[1], pattern: null, max_length: null, help_text: null });
    const badPattern = await svc.operator.post('/products', {
      name: 'X',
      type: 'topup',
      platform: 'p',
      region: 'r',
      status: 'sellable',
      form_fields: [{ ...fields[0], pattern: '([' }],
    });
    expect(badPattern.status).toBe(422);
    expect(badPattern.body.errors).toEqual([
      { field: 'body.form_fields.0.pattern', message: 'not a valid regular expression' },
    ]);
    const patched = await svc.operator.patch(`/products/${topup.body.id}`, { status: 'not_sellable' });
    expect(patched.status).toBe(200);
    expect(patched.body.status).toBe('not_sellable');
    expect((await svc.operator.patch('/products/unknown', { status: 'sellable' })).status).toBe(404);
    expect((await svc.operator.patch(`/products/${topup.body.id}`, { price: 1 })).status).toBe(422);
  });

  it('operator API: what is refused is named and changes nothing; what is accepted reaches the supplier API', async () => {
    const before = await events(svc);
    for (const [body, field] of [
      [{}, 'body.name'],
      [{ name: '   ' }, 'body.name'],
      [{ name: 'x'.repeat(201) }, 'body.name'],
    ] as const) {
      const res = await svc.operator.post('/suppliers', body);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field, message: expect.any(String) }]);
    }
    const base = { name: 'Gems', type: 'topup', platform: 'mobile', region: 'EU', status: 'sellable' };
    const text = { key: 'player_id', label: 'Player', type: 'text', required: true };
    for (const [body, field] of [
      [{ ...base, form_fields: [{ ...text, type: 'select' }] }, 'body.form_fields.0.options'],
      [{ ...base, form_fields: [text, { ...text, label: 'Again' }] }, 'body.form_fields.1.key'],
      [{ ...base, type: 'game_key', form_fields: [text] }, 'body.form_fields'],
      [{ ...base, form_fields: [{ ...text, max_length: 0 }] }, 'body.form_fields.0.max_length'],
      [{ ...base, status: 'gone' }, 'body.status'],
    ] as const) {
      const res = await svc.operator.post('/products', body);
      expect({ status: res.status, code: res.body.code, fields: res.body.errors.map((e: any) => e.field) }).toEqual({
        status: 422,
        code: 'validation_failed',
        fields: [field],
      });
    }
    expect(await events(svc)).toBe(before);

    // a token issued by the operator names its supplier
    const { id } = await svc.newSupplier('Issued');
    const issued = await svc.operator.post(`/suppliers/${id}/tokens`);
    expect(issued.body).toEqual({
      token: expect.stringMatching(/^svc_test_[0-9a-f]{40}$/),
      token_id: expect.any(String),
    });
    const supplier = client(svc.baseUrl, issued.body.token);
    expect((await supplier.get('/whoami')).body).toEqual({
      supplier: { id, name: 'Issued' },
      environment: 'sandbox',
      token_id: issued.body.token_id,
    });

    // a product change is what suppliers read
    const product = await svc.newProduct({ ...base, form_fields: [text] });
    const renamed = await svc.operator.patch(`/products/${product.id}`, {
      name: 'Gems Pack',
      form_fields: [{ ...text, help_text: 'six digits' }],
    });
    expect(renamed.status).toBe(200);
    const seen = await supplier.get(`/products/${product.id}`);
    expect(seen.body).toMatchObject({
      id: product.id,
      name: 'Gems Pack',
      type: 'topup',
      form_fields: [{ ...text, pattern: null, max_length: null, help_text: 'six digits', options: null }],
    });
    // a change that would leave form fields on a game key is refused as a whole
    const turned = await svc.operator.patch(`/products/${product.id}`, { type: 'game_key', name: 'Other' });
    expect(turned.status).toBe(422);
    expect(turned.body.errors).toEqual([{ field: 'body.form_fields', message: expect.any(String) }]);
    expect((await supplier.get(`/products/${product.id}`)).body.name).toBe('Gems Pack');
    // an empty change changes nothing
    const same = await svc.operator.patch(`/products/${product.id}`, {});
    expect(same.body).toEqual(renamed.body);
  });

  it('the clock endpoint exists only with the test clock, and moves time', async () => {
    expect((await svc.operator.post('/clock/advance', { seconds: 60 })).status).toBe(404);
    const before = withClock.clock.now().getTime();
    const moved = await withClock.operator.post('/clock/advance', { seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(new Date(moved.body.now).getTime()).toBe(before + 3600_000);
    expect((await withClock.operator.post('/clock/advance', { seconds: 0 })).status).toBe(422);
    const wrong = await withClock.operator.post('/clock/advance', { seconds: '60' });
    expect(wrong.body.errors).toEqual([{ field: 'body.seconds', message: expect.any(String) }]);
    // a retry with the same key does not move the clock twice
    const key = { headers: { 'idempotency-key': 'tick-1' } };
    const once = await withClock.operator.post('/clock/advance', { seconds: 90 }, key);
    const replay = await withClock.operator.post('/clock/advance', { seconds: 90 }, key);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.body).toEqual(once.body);
    expect(withClock.clock.now().toISOString()).toBe(once.body.now);
    expect(once.body.now).toBe(new Date(before + 3600_000 + 90_000).toISOString());
    // operator only
    const { api } = await withClock.newSupplier();
    expect((await api.withToken(withClock.operatorToken).get('/whoami')).status).toBe(401);
    expect(
      (
        await request(`${withClock.origin}/operator/v1`, 'POST', '/clock/advance', {
          token: (await withClock.newSupplier('S')).token,
          body: { seconds: 1 },
        })
      ).status,
    ).toBe(401);
    expect(withClock.clock.now().toISOString()).toBe(once.body.now);
  });

  it('supplier product reads: filter by type, walk every page with the cursor, read one', async () => {
    const { api } = await svc.newSupplier('Reader');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await svc.newProduct({ name: `Game ${i}` })).id);
    const all: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await api.get(`/products?type=game_key&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      all.push(...res.body.data.map((p: any) => p.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(all).toEqual(ids);
    expect(pages).toBe(3);
    const topups = (await api.get('/products?type=topup')).body.data.map((p: any) => p.type);
    expect(topups.length).toBeGreaterThan(0);
    expect(topups.every((t: string) => t === 'topup')).toBe(true);
    const one = await api.get(`/products/${ids[3]}`);
    expect(one.body).toMatchObject({
      id: ids[3],
      name: 'Game 3',
      type: 'game_key',
      form_fields: [],
      market: { buyer_price: null, active_offers: 0, your_offer_selected: false },
    });
    expect((await api.get('/products/unknown')).status).toBe(404);
  });

  it('product pages: default 50, limit 1 to 200, the cursor carries the filter along, forged cursors are refused', async () => {
    const reads = await startTestService();
    try {
      const { api } = await reads.newSupplier('Pager');
      const topups: string[] = [];
      const games: string[] = [];
      const topupFields = {
        type: 'topup',
        form_fields: [{ key: 'player_id', label: 'Player', type: 'text', required: true }],
      };
      for (let i = 0; i < 53; i++) {
        const p = await reads.newProduct(i % 10 === 4 ? { ...topupFields, name: `Topup ${i}` } : { name: `Game ${i}` });
        (p.type === 'topup' ? topups : games).push(p.id);
      }
      const everything = [...topups, ...games].sort();

      const first = await api.get('/products');
      expect(first.body.data.map((p: any) => p.id)).toEqual(everything.slice(0, 50));
      const rest = await api.get(`/products?cursor=${first.body.next_cursor}`);
      expect(rest.body).toEqual({ data: expect.any(Array), next_cursor: null });
      expect(rest.body.data.map((p: any) => p.id)).toEqual(everything.slice(50));
      expect((await api.get('/products?limit=200')).body.data.map((p: any) => p.id)).toEqual(everything);

      // walk the top-ups one by one
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await api.get(
          `/products?type=topup&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.data.every((p: any) => p.type === 'topup' && p.form_fields.length === 1)).toBe(true);
        walked.push(...res.body.data.map((p: any) => p.id));
        cursor = res.body.next_cursor;
      } while (cursor);
      expect(walked).toEqual(topups);
      expect(topups).toHaveLength(5);
      expect((await api.get('/products?type=gift_card')).body).toEqual({ data: [], next_cursor: null });

      for (const query of ['limit=0', 'limit=201', 'limit=ten', 'limit=2.5']) {
        const res = await api.get(`/products?${query}`);
        expect({ query, status: res.status, fields: res.body.errors?.map((e: any) => e.field) }).toEqual({
          query,
          status: 422,
          fields: ['querystring.limit'],
        });
      }
      const forged = [
        'abc',
        Buffer.from('not json').toString('base64url'),
        Buffer.from(JSON.stringify({ k: 42 })).toString('base64url'),
        Buffer.from(JSON.stringify(['01'])).toString('base64url'),
        'x'.repeat(600),
        // a key PostgreSQL text cannot hold, and one no id has
        Buffer.from(JSON.stringify({ k: '\u0000' })).toString('base64url'),
        Buffer.from(JSON.stringify({ k: '01 02' })).toString('base64url'),
      ];
      // over sequence numbers: past the exact integers, past a bigint
      const forgedSeq = ['99999999999999999999999', '9223372036854775808', '1e+23', '-1'].map((k) =>
        Buffer.from(JSON.stringify({ k })).toString('base64url'),
      );
      const lists = [
        '/products',
        '/offers',
        '/orders',
        '/webhooks',
        '/webhook-deliveries',
        '/payouts',
        '/balance/entries',
      ];
      const cases = [
        ...lists.flatMap((path) => forged.map((c) => `${path}?cursor=${c}`)),
        ...['/payouts', '/balance/entries'].flatMap((path) => forgedSeq.map((c) => `${path}?cursor=${c}`)),
      ];
      for (const url of cases) {
        const res = await api.get(url);
        expect({
          url,
          status: res.status,
          code: res.body.code,
          fields: res.body.errors?.map((e: any) => e.field),
        }).toEqual({ url, status: 422, code: 'validation_failed', fields: ['querystring.cursor'] });
      }
    } finally {
      await reads.stop();
    }
  });

  it('health probes answer without a token', async () => {
    for (const [path, body] of [
      ['/healthz', { status: 'ok' }],
      ['/readyz', { status: 'ready' }],
    ] as const) {
      const res = await request(svc.origin, 'GET', path);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body });
    }
  });

  it('answered nothing with a 5xx and logged no error', () => {
    expect(svc.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
    expect(withClock.logs.filter((l: any) => l.level >= 50 || (l.res?.statusCode ?? 0) >= 500)).toEqual([]);
  });
});

describe('logs', () => {
  it('carry the trace_id on every request line and never a token', async () => {
    const svc = await startTestService();
    try {
      const { id, token, api } = await svc.newSupplier('Quiet');
      const second = await svc.operator.post(`/suppliers/${id}/tokens`);
      const third = await svc.operator.post(`/suppliers/${id}/tokens`);
      const product = await svc.newProduct();
      const traced = [
        await api.get('/whoami'),
        await api.get(`/products/${product.id}`),
        await api.post('/offers', {
          product_id: product.id,
          stock_mode: 'uploaded',
          price: { amount: 900, currency: 'EUR' },
          external_ref: 'Q-1',
        }),
        await api.post('/offers', { stock_mode: 'nope' }),
        await client(svc.baseUrl, second.body.token).get('/whoami'),
        await svc.operator.delete(`/suppliers/${id}/tokens/${second.body.token_id}`),
        await client(svc.baseUrl, second.body.token).get('/whoami'), // revoked
        await request(svc.baseUrl, 'GET', '/whoami', { token: `${token}x` }),
        await request(svc.baseUrl, 'GET', '/whoami', { headers: { authorization: token } }), // no scheme
        await request(svc.baseUrl, 'GET', '/products/%E0%A4%A', { token: third.body.token }),
        await request(svc.baseUrl, 'GET', '/nowhere', { token: third.body.token }),
      ];
      expect(traced.map((r) => r.status)).toEqual([200, 200, 201, 422, 200, 204, 401, 401, 401, 400, 404]);

      const text = JSON.stringify(svc.logs);
      for (const secret of [token, second.body.token, third.body.token, svc.operatorToken]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice(-32)); // nor a part of it
      }
      const requestLines = svc.logs.filter((l) => l.req || l.res);
      expect(requestLines.every((l) => typeof l.trace_id === 'string')).toBe(true);
      // each answer's trace id names its incoming and completed lines
      for (const answer of traced) {
        const lines = svc.logs.filter((l) => l.trace_id === answer.headers.get('x-trace-id'));
        expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
        const completed = lines.find((l) => l.res)!;
        expect(completed.res).toEqual({ statusCode: answer.status });
        expect(completed.responseTime).toEqual(expect.any(Number));
      }
    } finally {
      await svc.stop();
    }
  });
});

describe('the OpenAPI webhooks section', () => {
  it('documents every event type with its envelope', async () => {
    const svc = await startTestService();
    try {
      const doc = (await request(svc.baseUrl, 'GET', '/openapi.json')).body;
      expect(Object.keys(doc.webhooks).sort()).toEqual([
        'inventory.import_completed',
        'ledger.checkpoint',
        'offer.deactivated',
        'offer.health_warning',
        'offer.repriced',
        'offer.stock_low',
        'order.created',
        'order.disputed',
        'order.expired',
        'order.paid',
        'order.refunded',
        'payout.created',
        'payout.failed',
        'payout.paid',
        'stock.invalidated',
        'webhook.disabled',
      ]);
      const paid = doc.webhooks['order.paid'].post.requestBody.content['application/json'].schema;
      expect(paid.required).toEqual(['id', 'type', 'mode', 'api_version', 'test_fire', 'created_at', 'data']);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/webhooks',
          '/api/v1/webhook-deliveries',
          '/api/v1/webhook-deliveries/{delivery_id}/resend',
        ]),
      );
      const repriced =
        doc.webhooks['offer.repriced'].post.requestBody.content['application/json'].schema.properties.data;
      expect(Object.keys(repriced.properties)).toEqual([
        'offer_id',
        'product_id',
        'external_ref',
        'price',
        'previous_price',
        'reason',
      ]);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/offers/{offer_id}/certification',
          '/api/v1/offers/{offer_id}/pricing-rule',
          '/api/v1/products/{product_id}/competition',
        ]),
      );
    } finally {
      await svc.stop();
    }
  });
});
