import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { csrfOf, newForm, signIn, type Visitor, visitor } from './visitor.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('console error pages over plain HTTP', () => {
  let svc: TestService;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let offerId: string;
  let browser: Visitor;
  let csrf: string;

  beforeAll(async () => {
    svc = await startTestService();
    alpha = await svc.newSupplier('Alpha Keys');
    const product = await svc.newProduct();
    const offer = await alpha.api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: eur(1000),
      external_ref: 'ALPHA-ERR',
    });
    offerId = offer.body.id;
    browser = visitor(svc.origin);
    await signIn(browser, alpha.token);
    csrf = csrfOf(await browser.get('/console/offers'));
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
  });

  it('an unknown console URL is a console page answering 404, signed in or not', async () => {
    for (const v of [browser, visitor(svc.origin)]) {
      const res = await fetch(`${svc.origin}/console/no-such-page`, {
        headers: { cookie: [...v.jar].map(([k, x]) => `${k}=${x}`).join('; ') },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<h1>Not found</h1>');
    }
    const unknownOffer = await browser.get('/console/offers/no-such-offer');
    expect(unknownOffer.status).toBe(404);
    expect(unknownOffer.text).toContain('There is no such offer');
    expect((await browser.get(`/console/offers/${'x'.repeat(300)}`)).status).toBe(404);
  });

  it('a date filter is a day: the balance and its CSV answer, and a date that is no day is a 422 page', async () => {
    const page = await browser.get('/console/balance?from=2026-11-01&to=2026-11-30');
    expect(page.status).toBe(200);
    const csv = await browser.get('/console/balance.csv?from=2026-11-01&to=2026-11-30');
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(
      'id,created_at,type,account,amount,currency,gross,commission,order_id,order_item_id,payout_id,available_at,pending_after,available_after\r\n',
    );
    const bad = await browser.get('/console/balance?from=2026-02-30');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('From must be a date, like 2026-11-01.');
    expect((await browser.get('/console/balance.csv?from=2026-11-30&to=2026-11-01')).status).toBe(422);
  });

  it('no console request answers 5xx, whatever it is sent', async () => {
    const gets = [
      '/console/balance?type=nonsense&from=x&to=%ff',
      '/console/balance.csv?from=99999-01-01',
      '/console/orders?status=nonsense',
      '/console/statements?month=2026-13',
      '/console/statements/2026-13',
      '/console/statements/2026-11/nonsense',
      '/console/offers/%E0%A4%A/inventory?status=nonsense',
      `/console/offers/${offerId}/pricing?simulate=abc`,
      '/console/payouts/nope',
      '/console/webhooks/nope',
      '/console/webhooks/deliveries/nope',
    ];
    for (const path of gets) expect((await browser.get(path)).status, path).toBeLessThan(500);
    const posts: [string, Record<string, string>][] = [
      ['/console/offers', { product_id: '', price: 'abc' }],
      ['/console/offers', { product_id: 'nope', price: '0', kind: 'declared', declared_stock: 'x' }],
      [`/console/offers/${offerId}/edit`, { price: '1', low_stock_threshold: '-5' }],
      [`/console/offers/${offerId}/stock`, { declared_stock: 'x' }],
      [`/console/offers/${offerId}/sandbox-order`, { quantity: '0', buyer_country: 'germany' }],
      [`/console/offers/${offerId}/pricing/save`, { beat_by: 'x', floor: '', ceiling: '1' }],
      [`/console/offers/${offerId}/nonsense`, {}],
      ['/console/payouts', { amount: '999999999' }],
      ['/console/webhooks', { url: 'not a url', events: 'nope', rate_limit: '0' }],
      ['/console/webhooks/nope/recover', { since: 'yesterday' }],
      ['/console/webhooks/nope/test', { event: 'nope' }],
      ['/console/webhooks/deliveries/nope/resend', {}],
    ];
    for (const [path, form] of posts) {
      const res = await browser.post(path, { ...newForm(csrf), ...form });
      expect(res.status, path).toBeLessThan(500);
      expect(res.text, path).not.toMatch(/body\.|Too small|expected number/);
    }
  });

  it("a form too large to read is a console page answering 413, not the API's JSON", async () => {
    const res = await browser.post('/console/offers', { ...newForm(csrf), external_ref: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.text).toContain('That is more than one form can send: send it in parts.');
    expect(res.text).toContain('<header>');
  });

  it('a refused price is said beside its field, in words, once, after a redirect', async () => {
    const posted = await browser.post(`/console/offers/${offerId}/edit`, {
      ...newForm(csrf),
      price: '0',
      external_ref: 'ALPHA-ERR',
    });
    // post, redirect, get: a reload of what follows never posts the edit again
    expect([posted.status, posted.location]).toEqual([303, `/console/offers/${offerId}`]);
    const res = await browser.get(posted.location!);
    expect(res.status).toBe(422);
    expect(res.text).toContain('value="ALPHA-ERR"');
    expect(res.text.split('Price must be at least 0.01 EUR.').length).toBe(2);
    expect(res.text).toMatch(/aria-describedby="price-error[^"]*"/);
    expect(res.text).toContain('<p class="field-error" id="price-error">Price must be at least 0.01 EUR.</p>');
    expect((await alpha.api.get(`/offers/${offerId}`)).body.price).toEqual(eur(1000));
    // shown once: the page afresh after that
    const again = await browser.get(posted.location!);
    expect([again.status, again.text.includes('price-error')]).toEqual([200, false]);
  });
});
