import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import { CHROMIUM, expectAccessible, expectPhoneReadable, LAUNCH, SHOTS, shot } from './browser.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe.skipIf(!CHROMIUM)('the supplier console in a real browser', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let beta: Awaited<ReturnType<TestService['newSupplier']>>;
  let offerId: string;
  let productId: string;
  let context: BrowserContext;
  let page: Page;

  const signIn = async (p: Page, token: string) => {
    await p.goto(`${svc.origin}/console`);
    expect(new URL(p.url()).pathname).toBe('/console/sign-in');
    await p.fill('#token', token);
    await Promise.all([p.waitForURL('**/console/offers'), p.click('button[type=submit]')]);
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    svc = await startTestService({ trustedCa: tls.cert, supplierTimeouts: { webhookMs: 2000 } });
    receiver = await startReceiver({ tls });
    receiver.answer(503);
    alpha = await svc.newSupplier('Alpha Keys');
    beta = await svc.newSupplier('Beta Games');
    productId = (await svc.newProduct({ name: 'Starfall Odyssey' })).id;
    const offer = await alpha.api.post('/offers', {
      product_id: productId,
      stock_mode: 'uploaded',
      price: eur(1000),
      external_ref: 'ALPHA-STAR',
    });
    offerId = offer.body.id;
    await alpha.api.post(`/offers/${offerId}/inventory`, {
      items: ['AAAA-1111', 'AAAA-2222', 'AAAA-3333'].map((value) => ({ kind: 'text', value })),
    });
    expect((await alpha.api.post(`/offers/${offerId}/activate`)).status).toBe(200);
    expect((await alpha.api.post('/webhooks', { url: receiver.url, events: ['order.paid'] })).status).toBe(201);
    browser = await chromium.launch(LAUNCH);
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await receiver?.close();
  });

  it('signs in with a token into a sealed HttpOnly, SameSite=Strict session cookie', async () => {
    await page.goto(`${svc.origin}/console/offers`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await shot(page, 'sign-in');
    await page.fill('#token', 'svc_test_not-a-token');
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('[role=alert]')).toContain('not a valid supplier token');
    await signIn(page, alpha.token);
    const [session] = (await context.cookies()).filter((c) => c.name === 'svc_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(session!.value).not.toContain(alpha.token.slice(9));
  });

  it('lists offers with status, price, stock, health, routing and market position', async () => {
    const row = page.locator('tr', { hasText: 'Starfall Odyssey' });
    await expect.poll(() => row.innerText()).toMatch(/active\s+10\.00\s€\s+3 available\s+100\s+eligible\s+selected/);
    await shot(page, 'offers');
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      storageState: await context.storageState(),
    });
    const small = await phone.newPage();
    await small.goto(`${svc.origin}/console/offers`);
    await expectPhoneReadable(small);
    await shot(small, 'offers-phone');
    await phone.close();
  });

  it('shows an offer with its timeline, changes its price, deactivates and activates it', async () => {
    await page.click('text=Starfall Odyssey');
    await page.waitForURL(`**/console/offers/${offerId}`);
    const timeline = await page.locator('.timeline').innerText();
    expect(timeline).toMatch(/activated/i);
    expect(timeline).toMatch(/created/i);
    await page.getByLabel('Price').fill('12.50');
    await Promise.all([page.waitForURL(/notice=/), page.getByRole('button', { name: 'Save changes' }).click()]);
    expect(await page.textContent('[role=status]')).toBe('Offer saved.');
    expect((await alpha.api.get(`/offers/${offerId}`)).body.price).toEqual(eur(1250));
    await Promise.all([page.waitForURL(/notice=/), page.click('button:text("Deactivate")')]);
    expect((await alpha.api.get(`/offers/${offerId}`)).body.status).toBe('inactive');
    await Promise.all([page.waitForURL(/notice=/), page.click('button:text("Activate")')]);
    expect((await alpha.api.get(`/offers/${offerId}`)).body.status).toBe('active');
    await shot(page, 'offer');
  });

  it('previews keys with each line not added and its reason, then stores the others', async () => {
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory`);
    await page.fill('#keys', 'BBBB-4444\nAAAA-1111\nBBBB-5555');
    await Promise.all([page.waitForURL(/\/preview$/), page.getByRole('button', { name: 'Preview' }).click()]);
    expect(await page.textContent('[role=status]')).toBe('2 keys will be added from 3 lines; 1 line will not.');
    expect(await page.locator('table').first().innerText()).toMatch(/2\s+already in stock/);
    await shot(page, 'inventory');
    expect((await alpha.api.get(`/offers/${offerId}`)).body.stock.available).toBe(3);
    await Promise.all([
      page.waitForURL(/\/inventory\/imports\//),
      page.getByRole('button', { name: 'Store 2 keys' }).click(),
    ]);
    // the harness runs the import when told
    await svc.drain();
    await page.reload();
    expect(await page.textContent('[role=status]')).toMatch(/^2 keys added in batch \S+; 1 line not added\.$/);
    expect((await alpha.api.get(`/offers/${offerId}`)).body.stock.available).toBe(5);
  });

  it('shows an order as it appears, with its items, and the balance it made', async () => {
    const placed = await svc.operator.post('/orders', {
      items: [{ product_id: productId, quantity: 1 }],
      buyer_country: 'DE',
    });
    expect((await svc.operator.post(`/orders/${placed.body.id}/pay`)).status).toBe(200);
    await svc.drain();
    await page.goto(`${svc.origin}/console/orders`);
    expect(await page.locator('tr', { hasText: placed.body.id }).innerText()).toMatch(/completed\s+1/);
    await shot(page, 'orders');
    await page.click(`text=${placed.body.id}`);
    expect(await page.locator('h1').innerText()).toContain(placed.body.id);
    expect(await page.locator('table').first().innerText()).toMatch(/delivered\s+12\.50\s€/);
    expect(await page.locator('table').nth(1).innerText()).toMatch(/uploaded\s+—\s+1 unit\(s\)/);
    expect(await page.locator('.timeline').innerText()).toMatch(/paid/i);
    await shot(page, 'order');

    await page.goto(`${svc.origin}/console/balance`);
    const entry = (await alpha.api.get('/balance/entries')).body.data[0];
    const pending = (await alpha.api.get('/balance')).body.pending;
    expect(await page.locator('.stats').innerText()).toContain(`${(pending.amount / 100).toFixed(2)}\u00a0€`);
    expect(await page.locator('svg[aria-label^="balance over time"] circle').count()).toBe(1);
    await shot(page, 'balance');
    const csv = await page.request.get(`${svc.origin}/console/balance.csv`);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe(
      [
        'id,created_at,type,account,amount,currency,gross,commission,order_id,order_item_id,payout_id,available_at,pending_after,available_after',
        [
          entry.id,
          entry.created_at,
          'sale',
          'pending',
          // euros with their currency, as the page shows them
          (entry.amount.amount / 100).toFixed(2),
          'EUR',
          '',
          '',
          placed.body.id,
          entry.order_item_id,
          '',
          entry.available_at,
          '',
          '',
        ].join(','),
        '',
      ].join('\r\n'),
    );
  });

  it('shows a failing webhook with its request and response, resends it, and rotates the secret once', async () => {
    await page.goto(`${svc.origin}/console/webhooks`);
    const failed = page.locator('tr', { hasText: 'order.paid' }).first();
    expect(await failed.innerText()).toMatch(/failed 503/);
    await failed.locator('text=request and response').click();
    expect(await page.locator('pre').first().innerText()).toContain('x-svc-signature: v1=');
    expect(await page.locator('pre').nth(1).innerText()).toMatch(/^503/);
    await shot(page, 'delivery');
    receiver.answer(200);
    await Promise.all([page.waitForURL(/notice=/), page.click('button:text("Resend")')]);
    expect(await page.textContent('[role=status]')).toBe('Resent: delivered.');
    expect(await page.locator('tr', { hasText: 'order.paid' }).first().innerText()).toMatch(/succeeded 200/);
    await expectAccessible(page);
    await shot(page, 'webhooks');
    await page.goto(`${svc.origin}/console/webhooks`);
    await page.locator('.card a', { hasText: receiver.url }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    expect(await page.textContent('#secret')).toMatch(/^whsec_[0-9a-f]{32}$/);
  });

  it('refuses a form post without the session CSRF token and changes nothing', async () => {
    const forged = await page.request.post(`${svc.origin}/console/offers/${offerId}/deactivate`, {
      form: { _csrf: 'forged' },
    });
    expect(forged.status()).toBe(403);
    expect((await alpha.api.get(`/offers/${offerId}`)).body.status).toBe('active');
  });

  it("never shows one supplier's data in another's session", async () => {
    const other = await browser.newContext();
    const p = await other.newPage();
    p.setDefaultTimeout(20_000);
    await signIn(p, beta.token);
    expect(await p.textContent('main')).not.toContain('Starfall');
    await p.goto(`${svc.origin}/console/offers/${offerId}`);
    expect(await p.locator('h1').innerText()).toBe('Not found');
    await p.goto(`${svc.origin}/console/orders`);
    expect(await p.locator('tbody tr').count()).toBe(0);
    await p.goto(`${svc.origin}/console/webhooks`);
    expect(await p.textContent('main')).not.toContain(receiver.url);
    await other.close();
  });

  it('signs out: the session is gone and pages lead back to sign-in', async () => {
    await page.goto(`${svc.origin}/console/offers`);
    await Promise.all([page.waitForURL('**/console/sign-in'), page.click('text=Sign out')]);
    expect((await context.cookies()).filter((c) => c.name === 'svc_console')).toEqual([]);
    await page.goto(`${svc.origin}/console/balance`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  });
});
