import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, keys, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, expectNoSideScroll, expectPhoneReadable, LAUNCH } from './browser.js';

/**
 * Payouts a supplier can follow, walked at a desk and on a phone by label and button name:
 * the hold, the minimum, the schedule and the next payout on the page before any payout; a
 * refused IBAN said beside its field; destinations added and shown masked; a sandbox payout
 * that reaches `paid` by itself, one to the test IBAN that fails with the money back, one
 * cancelled after a confirmation, a destination removed after one. Each effect read back
 * through the API.
 */
describe.skipIf(!CHROMIUM)('payouts in the console', () => {
  let svc: TestService;
  let browser: Browser;
  /** Every console answer of 500 or more, which no step may cause. */
  const faults: string[] = [];

  beforeAll(async () => {
    svc = await startTestService();
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

  for (const [width, height] of [
    [1280, 860],
    [390, 844],
  ] as const) {
    it(`at ${width} px: the rules shown first, destinations, a payout paid, one failed with the money back, one cancelled`, async () => {
      const supplier = await svc.newSupplier(`Payee ${width}`);
      const productId = (await svc.newProduct({ name: `Payout Quest ${width}` })).id;
      await uploadedOffer(supplier, productId, { price: 5000, values: keys(`P${width}`, 5) }); // net 4575 each
      await buy(svc, [{ product_id: productId, quantity: 2 }]);
      await svc.advance(600);
      const available = async () => (await supplier.api.get('/balance')).body.available.amount as number;
      expect(await available()).toBe(9150);

      const context = await browser.newContext({ viewport: { width, height }, isMobile: width < 600 });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('response', (r) => {
        if (r.status() >= 500) faults.push(`${r.status()} ${r.url()}`);
      });
      const look = async () => {
        await expectAccessible(page);
        await expectNoSideScroll(page);
        if (width < 600) await expectPhoneReadable(page);
      };
      await page.goto(`${svc.origin}/console/sign-in`);
      await page.getByLabel('Supplier API token').fill(supplier.token);
      await click(page, 'Sign in');
      // the balance says why money waits, and where the rules are
      await page.goto(`${svc.origin}/console/balance`);
      expect(await page.locator('#hold').innerText()).toBe(
        "A sale's proceeds stay pending for 10 minutes after delivery, then become available. Payouts start at 20.00\u00a0€: see Payouts.",
      );
      await look();
      await page.goto(`${svc.origin}/console/payouts`);
      await look();

      // the rules before anyone asks: the hold, the minimum, the schedule, the next payout
      for (const text of [
        "A sale's proceeds stay pending for 10 minutes after delivery, then become available.",
        'A payout is at least 20.00\u00a0€.',
        'Manual: a payout is made when you request one below.',
        'None scheduled: request one below.',
        'Add a destination above first: a payout needs somewhere to go.',
      ])
        expect(await page.getByText(text, { exact: true }).count(), text).toBe(1);

      // an IBAN whose check digits fail is refused beside its field, the values kept, after a redirect
      await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01');
      await page.getByLabel('Account holder').fill(`Payee ${width} GmbH`);
      await click(page, 'Add bank account');
      expect(page.url()).toBe(`${svc.origin}/console/payouts`);
      expect(await page.locator('#iban-error').innerText()).toBe(
        'IBAN is not valid: its country, length or check digits are wrong.',
      );
      expect(await page.getByLabel('Account holder').inputValue()).toBe(`Payee ${width} GmbH`);
      await look();
      expect((await supplier.api.get('/payout-destinations')).body.data).toEqual([]);

      // a bank account, a PayPal address and the test IBAN that fails
      await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
      await click(page, 'Add bank account');
      expect(await page.getByRole('status').innerText()).toBe('Payout destination DE •••• 3000 added.');
      await page.getByLabel('PayPal email').fill(`payee${width}@example.com`);
      await click(page, 'Add PayPal address');
      await page.getByLabel('IBAN').fill('DE62 3704 0044 0532 0130 01');
      await page.getByLabel('Account holder').fill('Closed Account');
      await click(page, 'Add bank account');
      const destinations = (await supplier.api.get('/payout-destinations')).body.data;
      expect(destinations.map((d: any) => [d.account, d.default])).toEqual([
        ['DE •••• 3000', true],
        ['p•••@example.com', false],
        ['DE •••• 3001', false],
      ]);
      // the accounts are shown masked: neither full IBAN added is on the page
      for (const full of ['3704 0044 0532 0130 00', '370400440532013000', '62370400440532013001'])
        expect(await page.content()).not.toContain(full);
      await look();

      // a payout to the default destination reaches paid by itself
      await page.getByLabel('Amount').fill('25.00');
      await click(page, 'Request payout');
      expect(await page.getByRole('status').innerText()).toBe('Payout of 25.00\u00a0€ requested.');
      const paidId = page.url().split('/').pop()!;
      expect((await supplier.api.get(`/payouts/${paidId}`)).body).toMatchObject({
        status: 'pending',
        destination: { id: destinations[0].id, account: 'DE •••• 3000' },
      });
      await look();
      await svc.advance(30);
      expect((await supplier.api.get(`/payouts/${paidId}`)).body.status).toBe('in_transit');
      await svc.advance(30);
      expect((await supplier.api.get(`/payouts/${paidId}`)).body.status).toBe('paid');
      await page.reload();
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Payout 25.00\u00a0€ paid');
      expect(await available()).toBe(6650);

      // to the test IBAN: failed, and the amount back in available
      await page.goto(`${svc.origin}/console/payouts`);
      await page.getByLabel('Amount').fill('20.00');
      await page.getByLabel('Destination').selectOption({ label: 'DE •••• 3001' });
      await click(page, 'Request payout');
      const failedId = page.url().split('/').pop()!;
      expect(await available()).toBe(4650);
      await svc.advance(30);
      expect((await supplier.api.get(`/payouts/${failedId}`)).body).toMatchObject({
        status: 'failed',
        failure_code: 'account_closed',
      });
      expect(await available()).toBe(6650);
      await page.reload();
      expect(
        await page.getByText('Failure: account_closed. The amount is back in your available balance.').count(),
      ).toBe(1);
      await look();

      // a pending payout cancelled, after a confirmation
      await page.goto(`${svc.origin}/console/payouts`);
      await page.getByLabel('Amount').fill('20.00');
      await page.getByLabel('Destination').selectOption({ label: 'p•••@example.com' });
      await click(page, 'Request payout');
      const cancelledId = page.url().split('/').pop()!;
      await click(page, 'Cancel payout…', 'link');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Cancel payout?');
      await look();
      await click(page, 'Cancel payout');
      expect(await page.getByRole('status').innerText()).toBe('Payout cancelled: 20.00\u00a0€ is available again.');
      expect((await supplier.api.get(`/payouts/${cancelledId}`)).body.status).toBe('cancelled');
      expect(await available()).toBe(6650);

      // the test IBAN removed, after a confirmation; the default cannot go while others stay
      await page.goto(`${svc.origin}/console/payouts`);
      await Promise.all([
        page.waitForLoadState('load'),
        page.getByRole('row', { name: /3001/ }).getByRole('link', { name: 'Remove…' }).click(),
      ]);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Remove payout destination?');
      await click(page, 'Remove destination');
      expect(await page.getByRole('status').innerText()).toBe('Payout destination removed.');
      await Promise.all([
        page.waitForLoadState('load'),
        page.getByRole('row', { name: /3000/ }).getByRole('link', { name: 'Remove…' }).click(),
      ]);
      await click(page, 'Remove destination');
      expect(await page.getByRole('alert').innerText()).toMatch(
        /is the default; make another one the default first\.$/,
      );
      expect((await supplier.api.get('/payout-destinations')).body.data.map((d: any) => d.account)).toEqual([
        'DE •••• 3000',
        'p•••@example.com',
      ]);
      await look();
      await context.close();
      expect(faults).toEqual([]);
    }, 240_000);
  }
});
