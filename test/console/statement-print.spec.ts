import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, keys, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, LAUNCH } from './browser.js';

/**
 * The printable statement fits an A4 page upright (its printable width at 12 mm margins is
 * 186 mm, 703 px) and a 390 px phone: nothing wider than the page, with the supplier's name,
 * and gross, commission and net on a sale's line.
 */
describe.skipIf(!CHROMIUM)('the printable statement', () => {
  let svc: TestService;
  let browser: Browser;

  beforeAll(async () => {
    svc = await startTestService();
    browser = await chromium.launch(LAUNCH);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  it('fits A4 upright in print and a 390 px phone on screen', async () => {
    const supplier = await svc.newSupplier('Printable Keys Trading Company');
    const productId = (await svc.newProduct({ name: 'Printable Quest' })).id;
    await uploadedOffer(supplier, productId, { price: 1999, values: keys('PR', 4) }); // an item of two: 39.98, commission 3.40, net 36.58
    const order = await buy(svc, [{ product_id: productId, quantity: 2 }]);
    expect((await svc.operator.post(`/orders/${order.id}/refund`, { item_ids: [order.items[0].id] })).status).toBe(200);
    await svc.advance(600);
    const month = svc.clock.now().toISOString().slice(0, 7);
    const widest = () => (globalThis as any).document.documentElement.scrollWidth as number;
    for (const [width, height, media] of [
      [390, 844, 'screen'],
      [703, 1000, 'print'],
    ] as const) {
      // the page's own policy allows no script: axe is let in by the browser, the page is as served
      const context = await browser.newContext({ viewport: { width, height }, isMobile: width < 600, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${svc.origin}/console/sign-in`);
      await page.getByLabel('Supplier API token').fill(supplier.token);
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
      const answer = await page.goto(`${svc.origin}/console/statements/${month}/print`);
      expect(answer?.status()).toBe(200);
      await page.emulateMedia({ media });
      expect(await page.evaluate(widest), `${media} at ${width}`).toBeLessThanOrEqual(width);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Statement ${month}`);
      expect(await page.getByText('Printable Keys Trading Company', { exact: true }).count()).toBe(1);
      // the sale's line: its gross, its commission and its net
      const sale = page.getByRole('row').filter({ hasText: 'sale · pending' }).first();
      const cells = await sale.getByRole('cell').allInnerTexts();
      expect(cells.slice(2, 5).map((c) => c.replace(/^(Gross|Commission|Net)\s*/, ''))).toEqual([
        '39.98',
        '3.40',
        '36.58',
      ]);
      await page.emulateMedia({ media: 'screen' });
      await expectAccessible(page);
      await context.close();
    }
  }, 180_000);
});
