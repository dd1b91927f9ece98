import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, type Supplier, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, expectNoSideScroll, LAUNCH } from './browser.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/**
 * Pricing without surprises, walked as a supplier does at a desk and on a phone: the rule's
 * bounds are on the page, a refused rule keeps every value and says every field's error at
 * once after a redirect, a preview says what the rule would do before it is saved, with no
 * competitor the price stays, a price typed under a rule is refused in words (never saved
 * and undone), and removing the rule asks first. Every effect is read back through the API.
 */
describe.skipIf(!CHROMIUM)('pricing in the console', () => {
  let svc: TestService;
  let browser: Browser;
  let alpha: Supplier;
  let beta: Supplier;
  /** Every console answer of 500 or more, which no step may cause. */
  const faults: string[] = [];

  beforeAll(async () => {
    svc = await startTestService();
    alpha = await svc.newSupplier('Alpha Keys');
    beta = await svc.newSupplier('Beta Games');
    browser = await chromium.launch(LAUNCH);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  const click = async (p: Page, name: string, role: 'button' | 'link' = 'button') => {
    await Promise.all([p.waitForLoadState('load'), p.getByRole(role, { name, exact: true }).click()]);
    await p.waitForLoadState('load');
  };
  const look = async (p: Page) => {
    await expectAccessible(p);
    await expectNoSideScroll(p);
  };
  const priceOf = async (offerId: string) => (await alpha.api.get(`/offers/${offerId}`)).body.price.amount as number;

  for (const [width, height] of [
    [1280, 860],
    [390, 844],
  ] as const) {
    it(`at ${width} px: bounds, refusal, preview, a rule alone, a rival, a price by hand refused, removal asked`, async () => {
      const productId = (await svc.newProduct({ name: `Nebula Drift ${width}` })).id;
      const ref = `NEB-${width}`;
      const { offerId } = await uploadedOffer(alpha, productId, {
        price: 1234,
        values: keys(`A${width}`, 3),
        externalRef: ref,
      });
      const context = await browser.newContext({ viewport: { width, height }, isMobile: width < 600 });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('response', (r) => {
        if (r.status() >= 500) faults.push(`${r.status()} ${r.url()}`);
      });
      await page.goto(`${svc.origin}/console/sign-in`);
      await page.getByLabel('Supplier API token').fill(alpha.token);
      await click(page, 'Sign in');
      const pricing = `${svc.origin}/console/offers/${offerId}/pricing`;
      await page.goto(pricing);
      await look(page);

      // the bounds are there before anything is typed
      for (const hint of [
        'At least 0.01 EUR, or 0.01 to 50 %',
        'Never below this, in euros',
        'Never above this, in euros; not below the floor',
        '1 to 60',
        'Keeping leaves your price where it is (within floor and ceiling)',
      ])
        expect(await page.getByText(hint, { exact: true }).count(), hint).toBe(1);

      // a refused rule: every field's error at once, in words naming the field, every value kept, after a redirect
      await page.getByLabel('Beat the lowest competitor by').fill('x');
      await page.getByLabel('Floor').fill('');
      await page.getByLabel('Ceiling').fill('5.00');
      await page.getByLabel('Changes per hour at most').fill('');
      await click(page, 'Save pricing rule');
      expect(page.url()).toBe(pricing);
      expect(await page.locator('#beat_by-error').innerText()).toBe(
        'Beat the lowest competitor by must be an amount in euros of at least 0.01, like 0.10.',
      );
      expect(await page.locator('#floor-error').innerText()).toBe('Floor must be an amount in euros, like 9.50.');
      expect(await page.locator('#max_changes_per_hour-error').innerText()).toBe(
        'Changes per hour at most must be a whole number.',
      );
      expect(await page.getByRole('alert').innerText()).toBe('Check the fields marked below.');
      expect(await page.getByLabel('Beat the lowest competitor by').inputValue()).toBe('x');
      expect(await page.getByLabel('Ceiling').inputValue()).toBe('5.00');
      await look(page);
      // the refused view was shown once: a reload is the page afresh, and posts nothing
      await page.reload();
      expect(await page.locator('.field-error').count()).toBe(0);
      expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).status).toBe(404);

      // a floor above the ceiling names the floor
      await page.getByLabel('Beat the lowest competitor by').fill('0.10');
      await page.getByLabel('Floor').fill('30.00');
      await page.getByLabel('Ceiling').fill('20.00');
      await click(page, 'Save pricing rule');
      expect(await page.locator('#floor-error').innerText()).toBe('Floor must not be above ceiling.');
      expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).status).toBe(404);

      // the preview says what the rule would do now, and saves nothing
      await page.getByLabel('Floor').fill('5.00');
      await page.getByLabel('Ceiling').fill('20.00');
      await page.getByLabel('Changes per hour at most').fill('6');
      await page.getByLabel('With no competitor').selectOption('keep');
      await click(page, 'Preview rule');
      expect(await page.locator('#preview').innerText()).toBe(
        'Saved now, this rule would keep your price at 12.34\u00a0€: no other supplier is routable now, and the rule keeps your price (within floor and ceiling). At that price you would rank 1 (selected) and get 11.29\u00a0€ after 1.05\u00a0€ commission. Nothing is saved yet.',
      );
      expect(await page.getByLabel('Floor').inputValue()).toBe('5.00');
      await look(page);
      await page.getByLabel('With no competitor').selectOption('ceiling');
      await click(page, 'Preview rule');
      expect(await page.locator('#preview').innerText()).toMatch(
        /^Saved now, this rule would change your price from 12\.34\u00a0€ to 20\.00\u00a0€: no other supplier is routable now, and the rule goes up to its ceiling\./,
      );
      expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).status).toBe(404);
      expect(await priceOf(offerId)).toBe(1234);

      // saved with no competitor, keeping: the price stays
      await page.getByLabel('With no competitor').selectOption('keep');
      await click(page, 'Save pricing rule');
      expect(await page.getByRole('status').innerText()).toBe('Pricing rule saved: your price is 12.34\u00a0€.');
      expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).body).toMatchObject({
        beat_by: { amount: 10 },
        floor: eur(500),
        ceiling: eur(2000),
        max_changes_per_hour: 6,
        when_alone: 'keep',
      });
      await svc.drain();
      expect(await priceOf(offerId)).toBe(1234);
      await look(page);

      // a rival comes: the rule beats it, and the page shows one price beside the buyer's
      const rival = await uploadedOffer(beta, productId, {
        price: 1500,
        values: keys(`B${width}`, 2),
        externalRef: `B-${width}`,
      });
      await svc.drain();
      expect(await priceOf(offerId)).toBe(1490);
      await page.goto(pricing);
      expect(await page.locator('#your-price').innerText()).toBe('14.90\u00a0€');
      expect(await page.locator('.stat', { hasText: 'Buyer pays' }).locator('b').innerText()).toBe('14.90\u00a0€');

      // a price typed under the rule is refused, in words beside the field, and nothing is saved or undone
      await page.goto(`${svc.origin}/console/offers/${offerId}`);
      expect(
        await page
          .getByText(
            'Set by your pricing rule, between 5.00\u00a0€ and 20.00\u00a0€: a price typed here is refused while the rule is on',
          )
          .count(),
      ).toBe(1);
      await page.getByLabel('Price', { exact: true }).fill('13.00');
      await click(page, 'Save changes');
      expect(await page.locator('#price-error').innerText()).toBe(
        'Price is set by your pricing rule: remove the rule, or change its floor and ceiling, to set the price by hand.',
      );
      expect(await page.getByText('Offer saved.').count()).toBe(0);
      await look(page);
      await svc.drain();
      expect(await priceOf(offerId)).toBe(1490);

      // the page open while the rule moves the price: saving another field leaves the rule's price alone
      await page.goto(`${svc.origin}/console/offers/${offerId}`);
      expect((await beta.api.put(`/offers/${rival.offerId}/price`, { price: eur(1400) })).status).toBe(200);
      await svc.drain();
      expect(await priceOf(offerId)).toBe(1390);
      expect(await page.getByLabel('Price', { exact: true }).inputValue()).toBe('14.90');
      await page.getByLabel('External ref').fill(`${ref}-B`);
      await click(page, 'Save changes');
      expect(await page.getByRole('status').innerText()).toBe('Offer saved.');
      expect((await alpha.api.get(`/offers/${offerId}`)).body).toMatchObject({
        external_ref: `${ref}-B`,
        price: eur(1390),
      });

      // removal asks first; keeping the rule changes nothing
      await page.goto(pricing);
      await click(page, 'Remove pricing rule', 'link');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Remove the pricing rule of ${ref}-B?`);
      await look(page);
      await click(page, 'Keep the rule', 'link');
      expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).status).toBe(200);
      await click(page, 'Remove pricing rule', 'link');
      await click(page, 'Remove pricing rule');
      expect(await page.getByRole('status').innerText()).toBe(
        'Pricing rule removed: your price stays at 13.90\u00a0€.',
      );
      expect((await alpha.api.get(`/offers/${offerId}/pricing-rule`)).status).toBe(404);

      // without the rule, a price by hand is saved and stays
      await page.goto(`${svc.origin}/console/offers/${offerId}`);
      await page.getByLabel('Price', { exact: true }).fill('13.00');
      await click(page, 'Save changes');
      expect(await page.getByRole('status').innerText()).toBe('Offer saved.');
      await svc.advance(3600);
      expect(await priceOf(offerId)).toBe(1300);
      await context.close();
      expect(faults).toEqual([]);
    }, 180_000);
  }
});
