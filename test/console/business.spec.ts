import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import {
  CHROMIUM,
  expectAccessible,
  expectBannerSpans,
  expectNoSideScroll,
  expectPhoneReadable,
  LAUNCH,
  SHOTS,
  shot,
} from './browser.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe.skipIf(!CHROMIUM)('a new supplier runs its business from the console', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let beta: Awaited<ReturnType<TestService['newSupplier']>>;
  let productId: string;
  let offerId: string;
  let page: Page;
  /** Every console page the walk saw, checked at phone width at the end. */
  const seen = new Set<string>();

  const visit = async (p: Page) => {
    seen.add(new URL(p.url()).pathname + new URL(p.url()).search);
    await expect.poll(() => p.getByRole('banner').innerText()).toContain('Test mode');
    await expectBannerSpans(p);
    await expectAccessible(p);
  };
  const click = async (p: Page, name: string, role: 'button' | 'link' = 'button') => {
    await Promise.all([p.waitForLoadState('load'), p.getByRole(role, { name, exact: true }).click()]);
    await p.waitForLoadState('load');
  };
  const today = () => svc.clock.now().toISOString().slice(0, 10);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    svc = await startTestService({ trustedCa: tls.cert, supplierTimeouts: { webhookMs: 2000 } });
    receiver = await startReceiver({ tls });
    alpha = await svc.newSupplier('Alpha Keys');
    beta = await svc.newSupplier('Beta Games');
    productId = (await svc.newProduct({ name: 'Nebula Drift' })).id;
    await svc.newProduct({ name: 'Retired Quest', status: 'not_sellable' });
    const rival = await beta.api.post('/offers', {
      product_id: productId,
      stock_mode: 'uploaded',
      price: eur(1500),
      external_ref: 'B-1',
    });
    await beta.api.post(`/offers/${rival.body.id}/inventory`, { items: [{ kind: 'text', value: 'BETA-0001' }] });
    expect((await beta.api.post(`/offers/${rival.body.id}/activate`)).status).toBe(200);
    browser = await chromium.launch(LAUNCH);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    page.setDefaultTimeout(20_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await receiver?.close();
  });

  it('signs in by the labelled token field, with the test-mode banner in the header', async () => {
    await page.goto(`${svc.origin}/console`);
    await visit(page);
    await page.getByLabel('Supplier API token').fill(alpha.token);
    await click(page, 'Sign in');
    expect(new URL(page.url()).pathname).toBe('/console/offers');
    await visit(page);
    await expect.poll(() => page.getByRole('link', { name: 'Skip to content' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Console' }).count()).toBe(1);
  });

  it('creates an offer on a catalogue product; a price of 0 is refused in words beside the field, once', async () => {
    await click(page, 'Create offer', 'link');
    await visit(page);
    // only products on sale are offered
    expect(await page.getByLabel('Product').locator('option', { hasText: 'Retired Quest' }).count()).toBe(0);
    // every field's refusal at once, each value kept: a price the console cannot read, and no product
    await page.getByLabel('Price').fill('12,3x');
    await page.getByLabel('External ref').fill('NEB-1');
    await click(page, 'Create offer');
    expect(await page.locator('#price-error').innerText()).toBe('Price must be an amount in euros, like 19.99.');
    expect(await page.locator('#product_id-error').innerText()).toMatch(/^Product /);
    expect(await page.getByLabel('External ref').inputValue()).toBe('NEB-1');
    expect(await page.getByLabel('Price').inputValue()).toBe('12,3x');
    await page.getByLabel('Product').selectOption({ label: 'Nebula Drift · steam · EU' });
    await page.getByLabel('Price').fill('0');
    await click(page, 'Create offer');
    const price = page.getByLabel('Price');
    expect(await page.getByText('Price must be at least 0.01 EUR.').count()).toBe(1);
    expect(await price.getAttribute('aria-describedby')).toContain('price-error');
    expect(await page.locator('#price-error').innerText()).toBe('Price must be at least 0.01 EUR.');
    await visit(page);
    expect((await alpha.api.get('/offers')).body.data).toEqual([]);
    await price.fill('12.34');
    await click(page, 'Create offer');
    const [offer] = (await alpha.api.get('/offers')).body.data;
    offerId = offer.id;
    expect(offer).toMatchObject({
      product_id: productId,
      stock_mode: 'uploaded',
      price: eur(1234),
      external_ref: 'NEB-1',
      status: 'draft',
    });
    expect(new URL(page.url()).pathname).toBe(`/console/offers/${offerId}`);
    await visit(page);
  });

  it('uploads keys, activates, edits the offer, and tells a reactivation by its health', async () => {
    await click(page, 'Inventory and key upload', 'link');
    await page.getByLabel('Keys, one per line').fill('NEB-0001\nNEB-0002\nNEB-0003');
    await click(page, 'Preview');
    expect(await page.getByRole('status').innerText()).toBe('3 keys will be added from 3 lines; 0 lines will not.');
    await click(page, 'Store 3 keys');
    // the harness runs the import when told
    await svc.drain();
    await page.reload();
    expect(await page.getByRole('status').innerText()).toMatch(/^3 keys added in batch \S+; 0 lines not added\.$/);
    await visit(page);
    expect((await alpha.api.get(`/offers/${offerId}`)).body.stock.available).toBe(3);
    await page.goto(`${svc.origin}/console/offers/${offerId}`);
    await click(page, 'Activate');
    expect((await alpha.api.get(`/offers/${offerId}`)).body.status).toBe('active');
    await page.getByLabel('External ref').fill('NEB-2');
    await page.getByLabel('Low-stock threshold').fill('2');
    await click(page, 'Save changes');
    expect((await alpha.api.get(`/offers/${offerId}`)).body).toMatchObject({
      external_ref: 'NEB-2',
      low_stock_threshold: 2,
      price: eur(1234),
    });
    await click(page, 'Deactivate');
    await click(page, 'Activate');
    const health = (await alpha.api.get(`/offers/${offerId}`)).body.health.score;
    expect(await page.locator('.timeline').innerText()).toContain(`reactivated: health restarts at ${health}`);
    await visit(page);
    await shot(page, 'offer');
  });

  it('places a sandbox order with a scenario from the offer page', async () => {
    await page.getByLabel('Scenario').selectOption('refunded');
    await click(page, 'Place sandbox order');
    const orderId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect((await alpha.api.get(`/orders/${orderId}`)).body).toMatchObject({ id: orderId, status: 'refunded' });
    await visit(page);
    // a disputed one says so, on its page and in the list
    await page.goBack();
    await page.getByLabel('Scenario').selectOption('disputed');
    await click(page, 'Place sandbox order');
    const disputedId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/completed\s+disputed$/);
    await visit(page);
    // the list: product, status in words, amount; filtered by days
    await page.goto(`${svc.origin}/console/orders`);
    await page.getByLabel('From').fill(today());
    await page.getByLabel('To').fill(today());
    await click(page, 'Filter');
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const disputed = (await alpha.api.get(`/orders/${disputedId}`)).body;
    expect(await rows.filter({ hasText: disputedId }).innerText()).toBe(
      `${disputedId}\tNebula Drift\tcompleted disputed\t${(disputed.totals.gross.amount / 100).toFixed(2)}\u00a0€\t1\t${disputed.created_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    );
    expect(await rows.filter({ hasText: orderId }).innerText()).toContain('refunded');
    await visit(page);
    // a day before any order shows none; a day that is no date is refused beside its field
    await page.getByLabel('To').fill('2000-01-01');
    await page.getByLabel('From').fill('2000-01-01');
    await click(page, 'Filter');
    expect(await page.getByText('No orders match.').count()).toBe(1);
    await page.goto(`${svc.origin}/console/orders?from=2026-02-30`);
    expect(await page.locator('#from-error').innerText()).toBe('From must be a date, like 2026-11-01.');
    await visit(page);
    await page.goto(`${svc.origin}/console/offers/${offerId}`);
  });

  it('adds a webhook endpoint, shows its secret once, test-fires, edits, recovers and deletes it', async () => {
    await page.goto(`${svc.origin}/console/webhooks`);
    await visit(page);
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('order.paid', { exact: true }).check();
    await page.getByLabel('offer.repriced', { exact: true }).check();
    await page.getByLabel('Description').fill('orders');
    await page.getByLabel('Rate limit').fill('5');
    await click(page, 'Add endpoint');
    expect(await page.locator('#secret').innerText()).toMatch(/^whsec_[0-9a-f]{32}$/);
    await visit(page);
    const endpointPage = await page.getByRole('link', { name: 'Go to the endpoint', exact: true }).getAttribute('href');
    // the write answered with a redirect: a reload repeats no write, and the secret is gone
    await page.reload();
    expect(await page.locator('h1').innerText()).toBe('Secret shown once');
    expect(await page.content()).not.toContain('whsec_');
    expect((await alpha.api.get('/webhooks')).body.data).toHaveLength(1);
    const [hook] = (await alpha.api.get('/webhooks')).body.data;
    expect(hook).toMatchObject({
      url: receiver.url,
      events: ['order.paid', 'offer.repriced'],
      description: 'orders',
      rate_limit: 5,
    });
    expect(endpointPage).toBe(`/console/webhooks/${hook.id}`);
    await page.goto(`${svc.origin}${endpointPage}`);
    expect(await page.content()).not.toContain('whsec_');
    await page.getByLabel('Event type').selectOption('payout.paid');
    await click(page, 'Test-fire');
    expect(await page.getByRole('status').innerText()).toBe('Test-fire of payout.paid delivered.');
    expect((await alpha.api.get('/webhook-deliveries')).body.data[0]).toMatchObject({
      event_type: 'payout.paid',
      test_fire: true,
    });
    await page.getByLabel('offer.repriced', { exact: true }).uncheck();
    await click(page, 'Save endpoint');
    expect((await alpha.api.get(`/webhooks/${hook.id}`)).body.events).toEqual(['order.paid']);
    await page
      .getByLabel('Since (UTC)')
      .fill(new Date(svc.clock.now().getTime() - 3600_000).toISOString().slice(0, 16));
    await click(page, 'Recover');
    expect(await page.getByRole('status').innerText()).toMatch(/^Recovery started/);
    await visit(page);
    // deleting asks first, and a cancel keeps the endpoint
    await click(page, 'Delete endpoint…', 'link');
    expect(await page.locator('main .card p').first().innerText()).toContain(`${receiver.url} stops receiving events`);
    await visit(page);
    await click(page, 'Cancel', 'link');
    expect((await alpha.api.get('/webhooks')).body.data).toHaveLength(1);
    await click(page, 'Delete endpoint…', 'link');
    await click(page, 'Delete endpoint');
    expect(await page.getByRole('status').innerText()).toBe('Endpoint deleted.');
    expect((await alpha.api.get('/webhooks')).body.data).toEqual([]);
  });

  it('filters the balance by days and exports the filter as CSV', async () => {
    await page.goto(`${svc.origin}/console/balance`);
    await page.getByLabel('From').fill(today());
    await page.getByLabel('To').fill(today());
    await click(page, 'Filter');
    const entries = (await alpha.api.get(`/balance/entries?from=${today()}T00:00:00Z`)).body.data;
    expect(entries.length).toBeGreaterThan(0);
    expect(await page.locator('tbody tr').count()).toBe(entries.length);
    await visit(page);
    await shot(page, 'balance');
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(href).toBe(`/console/balance.csv?from=${today()}&to=${today()}`);
    const csv = await page.request.get(`${svc.origin}${href}`);
    expect(csv.status()).toBe(200);
    expect((await csv.text()).trim().split('\n').length).toBe(entries.length + 1);
    const yesterday = new Date(svc.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('To').fill(yesterday);
    await click(page, 'Filter');
    expect(await page.locator('#to-error').innerText()).toBe('To must be the same day as From or later.');
    await visit(page);
  });

  it('shows the competition, simulates a price, sets and removes the pricing rule', async () => {
    await page.goto(`${svc.origin}/console/competition`);
    await visit(page);
    await page.goto(`${svc.origin}/console/offers/${offerId}/pricing`);
    await page.getByLabel('Price to simulate').fill('16.00');
    await click(page, 'Simulate');
    expect(await page.locator('#simulation').innerText()).toMatch(/^At 16\.00\s€: rank 2, not selected/);
    await visit(page);
    await page.getByLabel('Beat the lowest competitor by').fill('0.10');
    await page.getByLabel('Floor').fill('5.00');
    await page.getByLabel('Ceiling').fill('20.00');
    await page.getByLabel('Changes per hour at most').fill('6');
    await click(page, 'Save pricing rule');
    expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).body).toMatchObject({
      beat_by: { amount: 10 },
      floor: eur(500),
      ceiling: eur(2000),
      max_changes_per_hour: 6,
    });
    await visit(page);
    await click(page, 'Remove pricing rule', 'link');
    await visit(page);
    await click(page, 'Remove pricing rule');
    expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).status).toBe(404);
  });

  it('views the monthly statement with its CSV and printable page', async () => {
    await page.goto(`${svc.origin}/console/statements`);
    await visit(page);
    await page.getByLabel('Month').fill(today().slice(0, 7));
    await click(page, 'View statement');
    expect(new URL(page.url()).pathname).toBe(`/console/statements/${today().slice(0, 7)}`);
    await visit(page);
    const csv = await page.request.get(`${svc.origin}/console/statements/${today().slice(0, 7)}/csv`);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    // the printable page is the API's, under its own CSP (no script): axe is let in past it
    const printing = await browser.newContext({ bypassCSP: true, storageState: await page.context().storageState() });
    const print = await printing.newPage();
    const printed = await print.goto(`${svc.origin}/console/statements/${today().slice(0, 7)}/print`);
    expect(printed?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await print.getByRole('heading', { level: 1 }).innerText()).toBe(`Statement ${today().slice(0, 7)}`);
    await expectAccessible(print);
    await printing.close();
  });

  it('requests a payout once money is available, and lists it with its status', async () => {
    await page.goto(`${svc.origin}/console/payouts`);
    // somewhere for the money to go first: the request form asks for it
    await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await page.getByLabel('Account holder').fill('Alpha Keys GmbH');
    await click(page, 'Add bank account');
    expect(await page.getByRole('status').innerText()).toBe('Payout destination DE •••• 3000 added.');
    await page.getByLabel('Amount').fill('1.00');
    await click(page, 'Request payout');
    expect(await page.getByRole('alert').innerText()).toBe('A payout is at least 20.00 EUR.');
    await page.getByLabel('Amount').fill('25.00');
    await click(page, 'Request payout');
    expect(await page.getByRole('alert').innerText()).toBe('Your available balance is lower than that amount.');
    await visit(page);
    expect((await alpha.api.get('/payouts')).body.data).toEqual([]);
    // a paid sale becomes available after its hold: then the payout goes through
    const keys = ['NEB-0004', 'NEB-0005', 'NEB-0006'].map((value) => ({ kind: 'text', value }));
    expect((await alpha.api.post(`/offers/${offerId}/inventory`, { items: keys })).status).toBe(201);
    const order = await alpha.api.post('/sandbox/orders', { offer_id: offerId, quantity: 3, buyer_country: 'DE' });
    expect(order.status, order.text).toBe(201);
    const sale = (await alpha.api.get(`/balance/entries?type=sale`)).body.data.at(-1);
    await svc.advance(Math.ceil((Date.parse(sale.available_at) - svc.clock.now().getTime()) / 1000) + 60);
    const available = (await alpha.api.get('/balance')).body.available.amount;
    expect(available).toBeGreaterThanOrEqual(2000);
    const fresh = await (await browser.newContext()).newPage();
    await fresh.goto(`${svc.origin}/console/sign-in`);
    await fresh.getByLabel('Supplier API token').fill(alpha.token);
    await click(fresh, 'Sign in');
    await fresh.goto(`${svc.origin}/console/payouts`);
    await fresh.getByLabel('Amount').fill('20.00');
    await click(fresh, 'Request payout');
    const [payout] = (await alpha.api.get('/payouts')).body.data;
    expect(payout).toMatchObject({ amount: eur(2000), method: 'sepa_bank_transfer', trigger: 'manual' });
    expect(new URL(fresh.url()).pathname).toBe(`/console/payouts/${payout.id}`);
    expect(await fresh.getByRole('status').innerText()).toBe('Payout of 20.00\u00a0€ requested.');
    await visit(fresh);
    await fresh.goto(`${svc.origin}/console/payouts`);
    expect(await fresh.locator('tr', { hasText: payout.id }).innerText()).toContain(payout.status);
    await visit(fresh);
    await shot(fresh, 'payouts');
    await fresh.context().close();
  });

  it('at 390 px: a refused form keeps every value and error, a reload adds no endpoint, delete asks first, orders filter by day', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      storageState: await page.context().storageState(),
    });
    const small = await phone.newPage();
    small.setDefaultTimeout(20_000);
    // a refusal: every field's error at once, each value kept
    await small.goto(`${svc.origin}/console/offers/new`);
    await small.getByLabel('Price').fill('12,3x');
    await small.getByLabel('External ref').fill('PHONE-1');
    await click(small, 'Create offer');
    expect(await small.locator('#price-error').innerText()).toBe('Price must be an amount in euros, like 19.99.');
    expect(await small.locator('#product_id-error').innerText()).toMatch(/^Product /);
    expect([await small.getByLabel('External ref').inputValue(), await small.getByLabel('Price').inputValue()]).toEqual(
      ['PHONE-1', '12,3x'],
    );
    await visit(small);
    // an endpoint added, the page reloaded: one endpoint, its secret gone
    await small.goto(`${svc.origin}/console/webhooks`);
    await small.getByLabel('URL').fill(receiver.url);
    await small.getByLabel('order.paid', { exact: true }).check();
    await click(small, 'Add endpoint');
    expect(await small.locator('#secret').innerText()).toMatch(/^whsec_[0-9a-f]{32}$/);
    await small.reload();
    expect(await small.content()).not.toContain('whsec_');
    const hooks = (await alpha.api.get('/webhooks')).body.data;
    expect(hooks).toHaveLength(1);
    // deleting asks first
    await small.goto(`${svc.origin}/console/webhooks/${hooks[0].id}`);
    await click(small, 'Delete endpoint…', 'link');
    await visit(small);
    await click(small, 'Cancel', 'link');
    expect((await alpha.api.get('/webhooks')).body.data).toHaveLength(1);
    await click(small, 'Delete endpoint…', 'link');
    await click(small, 'Delete endpoint');
    expect(await small.getByRole('status').innerText()).toBe('Endpoint deleted.');
    expect((await alpha.api.get('/webhooks')).body.data).toEqual([]);
    // the orders of the day, each a stack of labelled values
    await small.goto(`${svc.origin}/console/orders`);
    await small.getByLabel('From').fill(today());
    await small.getByLabel('To').fill(today());
    await click(small, 'Filter');
    const orders = (await alpha.api.get('/orders')).body.data;
    expect(await small.locator('tbody tr').count()).toBe(orders.length);
    expect(await small.locator('tbody tr').first().innerText()).toContain(orders[0].id);
    await expectNoSideScroll(small);
    await expectPhoneReadable(small);
    await visit(small);
    await phone.close();
  });

  it('every page seen fits a 390 px phone without sideways scrolling', async () => {
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
    await small.goto(`${svc.origin}/console/balance?from=${today()}&to=${today()}`);
    await shot(small, 'balance-phone');
    await phone.close();
  });
});
