import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, expectNoSideScroll, LAUNCH } from './browser.js';
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

  for (const [width, height] of [
    [1280, 860],
    [390, 844],
  ] as const)
    it.skipIf(!CHROMIUM)(`at ${width} px: the refusal of a local URL says how to test locally, by label`, async () => {
      const supplier = await svc.newSupplier(`Local Keys ${width}`);
      const browser = await chromium.launch(LAUNCH);
      try {
        const page = await (await browser.newContext({ viewport: { width, height }, isMobile: width < 600 })).newPage();
        page.setDefaultTimeout(20_000);
        const click = async (p: Page, name: string) => {
          await Promise.all([p.waitForLoadState('load'), p.getByRole('button', { name, exact: true }).click()]);
          await p.waitForLoadState('load');
        };
        await page.goto(`${svc.origin}/console/sign-in`);
        await page.getByLabel('Supplier API token').fill(supplier.token);
        await click(page, 'Sign in');
        await page.goto(`${svc.origin}/console/webhooks`);
        await page.getByLabel('URL').fill('http://127.0.0.1:4242/webhooks');
        await page.getByLabel('order.paid', { exact: true }).check();
        await click(page, 'Add endpoint');
        expect(await page.locator('#url-local').innerText()).toContain(
          'To receive events on your own machine, run npm run cli -- listen --base-url ORIGIN --forward-to http://127.0.0.1:4242/webhooks',
        );
        // the value typed is kept, and the documents' section is a link away
        expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:4242/webhooks');
        expect(await page.getByRole('link', { name: 'Testing webhooks on your machine' }).getAttribute('href')).toBe(
          '/docs/webhooks.md#testing-webhooks-on-your-machine',
        );
        await expectAccessible(page);
        await expectNoSideScroll(page);
        expect((await supplier.api.get('/webhooks')).body.data).toEqual([]);
      } finally {
        await browser.close();
      }
    });
});
