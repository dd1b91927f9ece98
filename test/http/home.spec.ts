import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';

/** `GET /` and the documents under /docs/: no token, HTML for a browser, JSON for a caller that asks for it. */
describe('the home page and the documents', () => {
  let svc: TestService;
  const get = (path: string, accept?: string) => fetch(`${svc.origin}${path}`, accept ? { headers: { accept } } : {});

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('GET / links the console, the API reference and the documents', async () => {
    const res = await get('/', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const page = await res.text();
    const links = [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    for (const link of ['/console', '/api/v1/docs', '/docs/', '/api/v1/openapi.json']) expect(links).toContain(link);
    expect(page).toContain('This instance serves the sandbox (test mode).');
    // each link answers
    for (const link of new Set(links)) expect([link, (await get(link!)).status]).toEqual([link, 200]);
  });

  it('GET / with Accept: application/json answers the same links as JSON', async () => {
    const res = await get('/', 'application/json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      environment: 'sandbox',
      console: '/console',
      api_reference: '/api/v1/docs',
      openapi: '/api/v1/openapi.json',
      errors: '/api/v1/errors',
      docs: '/docs/',
    });
  });

  it('serves README.md and docs/*.md rendered, with heading anchors and their pictures', async () => {
    const index = await (await get('/docs/')).text();
    const names = [...index.matchAll(/href="\/docs\/([^"]+)"/g)].map((m) => m[1]);
    expect(names.slice(0, 2)).toEqual(['README.md', 'architecture.md']);
    expect(names).toContain('webhooks.md');
    const webhooks = await get('/docs/webhooks.md');
    expect(webhooks.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await webhooks.text()).toContain(
      '<h2 id="testing-webhooks-on-your-machine">Testing webhooks on your machine</h2>',
    );
    const readme = await (await get('/docs/README.md')).text();
    const picture = /<img src="(console\/[a-z-]+\.png)"/.exec(readme)?.[1];
    const png = await get(`/docs/${picture}`);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('anything else under /docs/ is a 404 problem', async () => {
    for (const path of ['/docs/nope.md', '/docs/..%2Fpackage.json', '/docs/decisions', '/docs/console/nope.png']) {
      const res = await get(path);
      expect([path, res.status, res.headers.get('content-type'), ((await res.json()) as any).code]).toEqual([
        path,
        404,
        'application/problem+json; charset=utf-8',
        'not_found',
      ]);
    }
  });
});
