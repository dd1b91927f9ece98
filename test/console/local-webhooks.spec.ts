import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { hiddenOf, signIn, visitor } from './visitor.js';

/** The quick start's sandbox refuses local URLs: the console says how to receive events on this machine instead. */
describe('console: a local webhook URL refused', () => {
  let svc: TestService;

  beforeAll(async () => {
    // as `npm start` runs: private targets not allowed
    svc = await startTestService({ extraConfig: { allowPrivateTargets: false } });
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
  });

  it('says to use listen or a local sandbox, and links the section of the documents', async () => {
    const supplier = await svc.newSupplier('Local Keys');
    const browser = visitor(svc.origin);
    await signIn(browser, supplier.token);
    let page = await browser.get('/console/webhooks');
    for (const url of ['http://127.0.0.1:4242/webhooks', 'https://127.0.0.1:4242/webhooks']) {
      const refused = await browser.post('/console/webhooks', {
        ...hiddenOf(page, '/console/webhooks'),
        url,
        events: '*',
        description: '',
        rate_limit: '',
      });
      expect([url, refused.status]).toEqual([url, 422]);
      expect(refused.text).toContain(
        'To receive events on your own machine, run <code>npm run cli -- listen --base-url ORIGIN --forward-to http://127.0.0.1:4242/webhooks</code>',
      );
      const link = /<a href="(\/docs\/webhooks\.md#[a-z-]+)">Testing webhooks on your machine<\/a>/.exec(
        refused.text,
      )?.[1];
      expect(link).toBe('/docs/webhooks.md#testing-webhooks-on-your-machine');
      const docs = await (await fetch(`${svc.origin}${link!.split('#')[0]}`)).text();
      expect(docs).toContain('id="testing-webhooks-on-your-machine"');
      page = refused;
    }
    // a URL refused for another reason gets no such hint
    const other = await browser.post('/console/webhooks', {
      ...hiddenOf(page, '/console/webhooks'),
      url: 'not a url',
      events: '*',
    });
    expect(other.status).toBe(422);
    expect(other.text).not.toContain('To receive events on your own machine');
    expect((await supplier.api.get('/webhooks')).body.data).toEqual([]);
  });
});
