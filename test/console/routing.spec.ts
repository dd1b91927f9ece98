import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, keys, type Supplier, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, expectNoSideScroll, LAUNCH } from './browser.js';

/**
 * An offer's routing page, walked by label at a desk and on a phone: from the offer to its
 * receipts, the share of orders won per day (chart and table), each order's reason in words,
 * and the CSV, for the winner and for the offer that lost on price.
 */
describe.skipIf(!CHROMIUM)('routing receipts in the console', () => {
  let svc: TestService;
  let browser: Browser;
  let alpha: Supplier;
  let beta: Supplier;
  let won: string;
  let lost: string;
  const faults: string[] = [];

  beforeAll(async () => {
    svc = await startTestService({ limits: { test: 1000 } });
    alpha = await svc.newSupplier('Alpha Keys');
    beta = await svc.newSupplier('Beta Games');
    browser = await chromium.launch(LAUNCH);
    const productId = (await svc.newProduct({ name: 'Routing page' })).id;
    won = (await uploadedOffer(alpha, productId, { price: 1000, values: keys('RA', 5), externalRef: 'ALPHA-R' }))
      .offerId;
    lost = (await uploadedOffer(beta, productId, { price: 1030, values: keys('RB', 5), externalRef: 'BETA-R' }))
      .offerId;
    await checkout(svc, [{ product_id: productId, quantity: 1 }]);
    await checkout(svc, [{ product_id: productId, quantity: 1 }]);
    await svc.drain();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    expect(faults).toEqual([]);
  });

  const signIn = async (supplier: Supplier, width: number, height: number) => {
    const context = await browser.newContext({ viewport: { width, height }, isMobile: width < 600 });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('response', (r) => {
      if (r.status() >= 500) faults.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${svc.origin}/console/sign-in`);
    await page.getByLabel('Supplier API token').fill(supplier.token);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.waitForLoadState('load');
    return page;
  };
  const openRouting = async (page: Page, offerId: string) => {
    await page.goto(`${svc.origin}/console/offers/${offerId}`);
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('link', { name: 'Routing: orders won and lost' }).click(),
    ]);
    await page.waitForLoadState('load');
    expect(page.url()).toBe(`${svc.origin}/console/offers/${offerId}/routing`);
    await expectAccessible(page);
    await expectNoSideScroll(page);
  };
  const today = () => svc.clock.now().toISOString().slice(0, 10);

  for (const [width, height] of [
    [1280, 860],
    [390, 844],
  ] as const) {
    it(`at ${width} px: the winner sees its share and wins; the loser sees why, and the CSV`, async () => {
      const winner = await signIn(alpha, width, height);
      await openRouting(winner, won);
      expect(await winner.getByRole('img', { name: 'share of orders won per day, last 14 days' }).count()).toBe(1);
      const days = winner.getByRole('table', { name: 'Orders won per day' });
      expect(await days.getByRole('row').last().getByRole('cell').allInnerTexts()).toEqual([
        today(),
        '2',
        '2',
        '100 %',
      ]);
      // the forecast, with the table's numbers: uploaded keys have no supplier call to fail
      expect(await winner.locator('#health-score').innerText()).toBe('Health 100 of 100: routed.');
      expect(await winner.locator('#health-next').innerText()).toBe('No failure counts against this offer.');
      const rules = winner.getByRole('table', { name: 'The health rules' });
      expect(await rules.getByRole('row').nth(1).getByRole('cell').allInnerTexts()).toEqual([
        'Routing needs at least',
        '70',
      ]);
      const receipts = winner.getByRole('table', { name: 'Routing receipts, newest first' });
      expect(await receipts.getByText('won: 1st of 2', { exact: true }).count()).toBe(2);
      await winner.context().close();

      const loser = await signIn(beta, width, height);
      await openRouting(loser, lost);
      const lostDays = loser.getByRole('table', { name: 'Orders won per day' });
      expect(await lostDays.getByRole('row').last().getByRole('cell').allInnerTexts()).toEqual([
        today(),
        '2',
        '0',
        '0 %',
      ]);
      const why = loser
        .getByRole('table', { name: 'Routing receipts, newest first' })
        .getByText('a lower price: you were 2nd of 2, 0.30 € above', { exact: true });
      expect(await why.count()).toBe(2);
      expect(await loser.content()).not.toContain('Alpha Keys');
      expect(await loser.content()).not.toContain(won);
      const csv = await loser.request.get(
        `${svc.origin}${await loser.getByRole('link', { name: 'Download routing receipts (CSV)' }).getAttribute('href')}`,
      );
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).split('\r\n');
      expect(lines[0]).toBe(
        'order_id,routed_at,quantity,won,quantity_won,reason,explanation,rank,ranked,above_winner,your_price,currency',
      );
      expect(lines.slice(1, 3).map((l) => l.split(',').slice(2).join(','))).toEqual([
        '1,false,0,lower_price,"a lower price: you were 2nd of 2, 0.30 € above",2,2,0.30,10.30,EUR',
        '1,false,0,lower_price,"a lower price: you were 2nd of 2, 0.30 € above",2,2,0.30,10.30,EUR',
      ]);
      await loser.context().close();
    }, 120_000);
  }

  it("answers another supplier's offer with the console's not-found page", async () => {
    const page = await signIn(beta, 1280, 860);
    const res = await page.goto(`${svc.origin}/console/offers/${won}/routing`);
    expect(res?.status()).toBe(404);
    await expectAccessible(page);
    await page.context().close();
  }, 60_000);
});
