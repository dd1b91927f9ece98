import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSupplierKit, type SupplierKit } from '../../src/sdk/kit/index.js';
import { PLAYER_FORM } from '../declared/support.js';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import {
  CHROMIUM,
  expectAccessible,
  expectBannerSpans,
  expectNoSideScroll,
  expectPhoneReadable,
  LAUNCH,
} from './browser.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/**
 * The console walk of what a supplier with its own fulfilment API does, by labels and button
 * names, each effect checked through the API and each page by axe-core: a declared offer and
 * a top-up offer created against a real fulfilment server (the reference supplier kit over
 * HTTP), declared stock set, the fulfilment secret rotated (the new one shown once, then the
 * one the service signs with), a top-up's own order fields in the sandbox order form, keys
 * uploaded from a file with each refused line's reason, and a webhook endpoint disabled and
 * re-enabled.
 */
describe.skipIf(!CHROMIUM)('a supplier with its own fulfilment API runs it from the console', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let keysKit: SupplierKit;
  let topupKit: SupplierKit;
  let gameId: string;
  let topupId: string;
  let declaredId: string;
  const seen = new Set<string>();

  const visit = async (p: Page) => {
    seen.add(new URL(p.url()).pathname);
    await expectBannerSpans(p);
    await expectAccessible(p);
  };
  const click = async (p: Page, name: string, role: 'button' | 'link' = 'button') => {
    await Promise.all([p.waitForLoadState('load'), p.getByRole(role, { name, exact: true }).click()]);
    await p.waitForLoadState('load');
  };
  const kit = () =>
    startSupplierKit({ secrets: ['svcsec_00000000000000000000000000000000'], now: () => svc.clock.now().getTime() });
  const offerOf = async (id: string) => (await alpha.api.get(`/offers/${id}`)).body;
  /** The offer just created: the API's list, newest last. */
  const created = async (productId: string) =>
    ((await alpha.api.get('/offers')).body.data as any[]).find((o) => o.product_id === productId);

  beforeAll(async () => {
    svc = await startTestService({ trustedCa: tls.cert });
    receiver = await startReceiver({ tls });
    alpha = await svc.newSupplier('Alpha Keys');
    gameId = (await svc.newProduct({ name: 'Orbit Racer' })).id;
    topupId = (await svc.newProduct({ name: 'Gem Pack', type: 'topup', form_fields: PLAYER_FORM })).id;
    [keysKit, topupKit] = [await kit(), await kit()];
    browser = await chromium.launch(LAUNCH);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${svc.origin}/console/sign-in`);
    await page.getByLabel('Supplier API token').fill(alpha.token);
    await click(page, 'Sign in');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await receiver?.close();
    await keysKit?.close();
    await topupKit?.close();
  });

  it('creates a declared offer on its fulfilment URL, the secret shown once, and activates it', async () => {
    await page.goto(`${svc.origin}/console/offers/new`);
    await visit(page);
    // the form shows one stock mode's fields at a time: an uploaded offer's has no fulfilment URL
    expect(await page.getByLabel('Fulfilment URL').count()).toBe(0);
    await click(page, 'Declared stock (your fulfilment API)', 'link');
    await visit(page);
    await page.getByLabel('Product').selectOption({ label: 'Orbit Racer · steam · EU' });
    await page.getByLabel('Price').fill('9.50');
    await page.getByLabel('External ref').fill('ORB-1');
    await page.getByLabel('Fulfilment URL').fill(keysKit.url);
    await page.getByLabel('Delivery within (minutes)').fill('30');
    await page.getByLabel('Delivery time').fill('instant');
    await page.getByLabel('Declared stock', { exact: true }).fill('4');
    await click(page, 'Create offer');
    const secret = await page.locator('#secret').innerText();
    expect(secret).toMatch(/^svcsec_[0-9a-f]{32}$/);
    await visit(page);
    declaredId = (await created(gameId)).id;
    expect(await offerOf(declaredId)).toMatchObject({
      stock_mode: 'declared',
      price: eur(950),
      external_ref: 'ORB-1',
      fulfilment: { base_url: keysKit.url },
      delivery_sla_minutes: 30,
      delivery_time: 'instant',
      stock: { declared: 4 },
      status: 'draft',
    });
    keysKit.setSecrets([secret]);
    await click(page, 'Go to the offer', 'link');
    expect(await page.content()).not.toContain(secret);
    await click(page, 'Activate');
    expect((await offerOf(declaredId)).status).toBe('active');
    await visit(page);
  });

  it('sets the declared stock and edits the delivery terms', async () => {
    await page.getByLabel('Declared stock', { exact: true }).fill('7');
    await click(page, 'Set declared stock');
    expect(await page.getByRole('status').innerText()).toBe('Declared stock set.');
    expect((await offerOf(declaredId)).stock.declared).toBe(7);
    await page.getByLabel('Delivery within (minutes)').fill('45');
    await page.getByLabel('Delivery time').fill('within the hour');
    await click(page, 'Save changes');
    expect(await offerOf(declaredId)).toMatchObject({ delivery_sla_minutes: 45, delivery_time: 'within the hour' });
    await visit(page);
  });

  it('rotates the fulfilment secret: the new one is shown once, and it is the one the service signs with', async () => {
    await click(page, 'Rotate fulfilment secret');
    const secret = await page.locator('#secret').innerText();
    expect(secret).toMatch(/^svcsec_[0-9a-f]{32}$/);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('New fulfilment secret');
    await visit(page);
    await click(page, 'Back to the offer', 'link');
    expect(await page.content()).not.toContain(secret);
    // the kit now accepts only the new secret: a sale through it completes only if it signs with it
    keysKit.setSecrets([secret]);
    await page.getByLabel('Scenario').selectOption('paid');
    await click(page, 'Place sandbox order');
    const orderId = new URL(page.url()).pathname.split('/').at(-1)!;
    await svc.drain();
    expect((await alpha.api.get(`/orders/${orderId}`)).body.status).toBe('completed');
    expect(keysKit.received.filter((r) => r.status === 401)).toEqual([]);
    await visit(page);
  });

  it("creates a top-up offer, and its sandbox order form asks for the product's own fields", async () => {
    await page.goto(`${svc.origin}/console/offers/new`);
    await click(page, 'Top-up (your fulfilment API)', 'link');
    // a top-up offer is made on top-up products only
    expect(await page.getByLabel('Product').locator('option', { hasText: 'Orbit Racer' }).count()).toBe(0);
    await page.getByLabel('Product').selectOption({ label: 'Gem Pack · steam · EU' });
    await page.getByLabel('Price').fill('4.99');
    await page.getByLabel('External ref').fill('GEM-1');
    await page.getByLabel('Fulfilment URL').fill(topupKit.url);
    await page.getByLabel('Declared stock', { exact: true }).fill('100');
    await click(page, 'Create offer');
    const secret = await page.locator('#secret').innerText();
    topupKit.setSecrets([secret]);
    const offer = await created(topupId);
    expect(offer).toMatchObject({ stock_mode: 'declared', price: eur(499), fulfilment: { base_url: topupKit.url } });
    await click(page, 'Go to the offer', 'link');
    await click(page, 'Activate');
    expect((await offerOf(offer.id)).status).toBe('active');
    await visit(page);
    await page.getByLabel('Player ID').fill('100001');
    await click(page, 'Place sandbox order');
    const orderId = new URL(page.url()).pathname.split('/').at(-1)!;
    await svc.drain();
    const order = (await alpha.api.get(`/orders/${orderId}`)).body;
    expect([order.status, order.items[0].fulfilment.account_label]).toEqual(['completed', 'Sandbox player 100001']);
    expect(topupKit.state.topups_performed).toBe(1);
    await visit(page);
  });

  it('uploads keys from a file, each refused line shown with its reason', async () => {
    const offer = await alpha.api.post('/offers', {
      product_id: (await svc.newProduct({ name: 'File Quest' })).id,
      stock_mode: 'uploaded',
      price: eur(1200),
      external_ref: 'FILE-1',
    });
    await page.goto(`${svc.origin}/console/offers/${offer.body.id}/inventory`);
    await visit(page);
    await page.getByLabel('Add a text, CSV or TSV file').setInputFiles({
      name: 'keys.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('FILE-0001,first\r\nFILE-0002,second\r\nFILE-0001,again\r\n'),
    });
    await expect
      .poll(() => page.getByLabel('Keys, one per line').inputValue())
      .toBe('FILE-0001,first\nFILE-0002,second\nFILE-0001,again\n');
    await click(page, 'Preview');
    expect(await page.getByRole('status').innerText()).toBe('2 keys will be added from 3 lines; 1 line will not.');
    expect(
      (await page.locator('tr', { hasText: 'duplicate in the file' }).innerText()).split('\t').slice(0, 2),
    ).toEqual(['3', 'duplicate in the file']);
    await visit(page);
    await click(page, 'Store 2 keys');
    // the harness runs the import when told
    await svc.drain();
    await page.reload();
    expect(await page.getByRole('status').innerText()).toMatch(/^2 keys added in batch \S+; 1 line not added\.$/);
    expect((await offerOf(offer.body.id)).stock.available).toBe(2);
    await visit(page);
  });

  it('disables a webhook endpoint and re-enables it', async () => {
    const hook = await alpha.api.post('/webhooks', { url: receiver.url, events: ['order.paid'] });
    expect(hook.status, hook.text).toBe(201);
    await page.goto(`${svc.origin}/console/webhooks/${hook.body.id}`);
    await click(page, 'Disable');
    expect(await page.getByRole('status').innerText()).toBe('Endpoint disabled.');
    expect((await alpha.api.get(`/webhooks/${hook.body.id}`)).body.status).toBe('disabled');
    await visit(page);
    await click(page, 'Re-enable');
    expect(await page.getByRole('status').innerText()).toBe('Endpoint re-enabled.');
    expect((await alpha.api.get(`/webhooks/${hook.body.id}`)).body.status).toBe('active');
    await visit(page);
  });

  it('every page seen fits a 390 px phone, the test-mode banner edge to edge', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      storageState: await page.context().storageState(),
    });
    const small = await phone.newPage();
    for (const path of seen) {
      await small.goto(`${svc.origin}${path}`);
      await expectNoSideScroll(small);
      await expectPhoneReadable(small);
      await expectBannerSpans(small);
    }
    await phone.close();
  });
});
