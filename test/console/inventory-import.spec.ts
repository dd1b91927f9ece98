import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, LAUNCH, SHOTS, shot } from './browser.js';

const FORMAT = {
  pattern: '[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}',
  min_length: 14,
  max_length: 14,
  description: '3 groups of 4 capital letters or digits, joined by dashes',
};

/** A file as a spreadsheet saves it: a BOM, a header, quotes, CRLF, blank lines, a duplicate, a line too long, a key out of format. */
const MESSY = [
  '\uFEFFkey,note',
  '"HLX1-AAAA-0001",first',
  '  HLX1-AAAA-0002  ,',
  '',
  'HLX1-AAAA-0003',
  'HLX1-AAAA-0001',
  'x'.repeat(1100),
  'hlx1-aaaa-0004',
  'HLX1-AAAA-0005',
  '',
].join('\r\n');

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3b8e0a10000000049454e44ae426082',
  'hex',
);

const KEYS = 100_000;

describe.skipIf(!CHROMIUM)('importing keys from the console', () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let offerId: string;
  /** Every answer of the console a page received of 500 or more: there must be none. */
  const faults: string[] = [];
  // the harness runs timers only when told: the import job runs while a test waits on it
  let pumping = true;
  let pump: Promise<void>;

  const click = async (name: string) => {
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name, exact: true }).click()]);
    await page.waitForLoadState('load');
  };
  const status = () => page.getByRole('status').innerText();
  const completed = async () => {
    await expect
      .poll(
        async () => {
          await page.reload();
          return status();
        },
        { timeout: 600_000, interval: 1000 },
      )
      .toMatch(/added in batch/);
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    svc = await startTestService({ limits: { bulk: 100 } });
    supplier = await svc.newSupplier('Helix Keys');
    const product = await svc.newProduct({ name: 'Helix Run', key_format: FORMAT });
    const offer = await supplier.api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 1500, currency: 'EUR' },
      external_ref: 'HLX-1',
    });
    offerId = offer.body.id;
    pump = (async () => {
      while (pumping) {
        await svc.drain();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    browser = await chromium.launch(LAUNCH);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(60_000);
    page.on('response', (r) => {
      if (r.status() >= 500) faults.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${svc.origin}/console`);
    await page.fill('#token', supplier.token);
    await Promise.all([page.waitForURL('**/console/offers'), page.click('button[type=submit]')]);
  }, 120_000);
  afterAll(async () => {
    pumping = false;
    await pump;
    await browser?.close();
    await svc?.stop();
  });

  it('previews a messy file with every line not added and its reason, stores it, and the values read back exact', async () => {
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory`);
    await expectAccessible(page);
    await page.getByLabel('Add a text, CSV or TSV file').setInputFiles({
      name: 'keys.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(MESSY),
    });
    await expect.poll(() => page.locator('#key-file-note').innerText()).toContain('keys.csv: added below');
    // a second file adds to what is there
    await page.getByLabel('Add a text, CSV or TSV file').setInputFiles({
      name: 'more.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('HLX1-AAAA-0009'),
    });
    await expect.poll(() => page.locator('#key-file-note').innerText()).toContain('more.txt: added below');
    expect((await page.getByLabel('Keys, one per line').inputValue()).split('\n').slice(-2)).toEqual([
      'HLX1-AAAA-0005',
      'HLX1-AAAA-0009',
    ]);
    await click('Preview');
    expect(await status()).toBe('5 keys will be added from 10 lines; 5 lines will not.');
    const rows = await page.locator('table tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').slice(0, 2))).toEqual([
      ['1', 'looks like a header'],
      ['4', 'empty'],
      ['6', 'duplicate in the file'],
      ['7', 'too long (more than 1,024 characters)'],
      ['8', "does not match the product's key format: 3 groups of 4 capital letters or digits, joined by dashes"],
    ]);
    // nothing stored by a preview
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.available).toBe(0);
    await expectAccessible(page);
    await shot(page, 'inventory-import-preview');
    await click('Store 5 keys');
    await completed();
    expect(await status()).toMatch(/^5 keys added in batch \S+; 5 lines not added\.$/);
    await expectAccessible(page);
    const csv = await page.request.get(
      `${svc.origin}${await page.getByRole('link', { name: 'Download the lines not added (CSV)' }).getAttribute('href')}`,
    );
    expect((await csv.text()).split('\r\n')[0]).toBe('line,reason,shown');

    const items = (await supplier.api.get(`/offers/${offerId}/inventory`)).body.data;
    expect(items.map((i: any) => [i.masked_value, i.status])).toEqual([
      ['H••••••••••001', 'available'],
      ['H••••••••••002', 'available'],
      ['H••••••••••003', 'available'],
      ['H••••••••••005', 'available'],
      ['H••••••••••009', 'available'],
    ]);
    expect(JSON.stringify(items)).not.toContain('HLX1-AAAA');
    const values = [];
    for (const item of items) {
      const revealed = await supplier.api.post(`/offers/${offerId}/inventory/${item.id}/reveal`);
      values.push(revealed.body.value);
    }
    expect(values).toEqual(['HLX1-AAAA-0001', 'HLX1-AAAA-0002', 'HLX1-AAAA-0003', 'HLX1-AAAA-0005', 'HLX1-AAAA-0009']);
  });

  it('refuses a picture as not a text file, keeping what was pasted', async () => {
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory`);
    await page.getByLabel('Keys, one per line').fill('HLX1-BBBB-0001');
    await page.getByLabel('Add a text, CSV or TSV file').setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await expect.poll(() => page.locator('#key-file-note').innerText()).toContain('cover.png');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/inventory/preview')),
      page.getByRole('button', { name: 'Preview', exact: true }).click(),
    ]);
    await page.waitForLoadState('load');
    expect(answer.status()).toBe(422);
    expect(await page.getByRole('alert').first().innerText()).toContain('cover.png is not a text file');
    expect(await page.getByLabel('Keys, one per line').inputValue()).toBe('HLX1-BBBB-0001');
    await expectAccessible(page);
  });

  it('shows items masked with status, batch and time; finds by last 4; reveals (recorded) and withdraws after a confirmation', async () => {
    // a key of 14 characters shows its last 3: the find takes what the mask shows
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory?last4=002`);
    const rows = await page.locator('form[action$="/inventory/withdraw"] tbody tr').allInnerTexts();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('H••••••••••002');
    expect(rows[0]).toContain('available');
    await click('Reveal H••••••••••002');
    expect(await page.locator('#revealed').innerText()).toBe('HLX1-AAAA-0002');
    await expectAccessible(page);
    const history = await svc.services.plainDb
      .selectFrom('es_events' as any)
      .select(['type' as any])
      .where('stream_id' as any, '=', `offer-${offerId}`)
      .execute();
    expect(history.map((e: any) => e.type)).toContain('InventoryItemRevealed');

    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory?status=available`);
    await page.getByLabel('Select H••••••••••001').check();
    await page.getByLabel('Select H••••••••••003').check();
    await click('Withdraw selected');
    expect(await page.getByRole('main').innerText()).toContain('Withdraw 2 items (the selected items)?');
    await expectAccessible(page);
    await click('Withdraw 2 items');
    expect(await status()).toBe('2 items withdrawn; 3 available now.');
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.available).toBe(3);
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory?status=withdrawn`);
    expect(await page.locator('form[action$="/inventory/withdraw"] tbody tr').count()).toBe(2);
    await expectAccessible(page);

    // a whole batch: what is still available in it
    const batch = (await supplier.api.get(`/offers/${offerId}/inventory`)).body.data[0].batch_id;
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory?batch=${batch}`);
    await click('Withdraw all available in this batch');
    expect(await page.getByRole('main').innerText()).toContain(
      `Withdraw 3 items (every available item of batch ${batch})?`,
    );
    await click('Withdraw 3 items');
    expect(await status()).toBe('3 items withdrawn; 0 available now.');
  });

  it('uploads a picture as a file item, one item per file', async () => {
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory`);
    await page.getByLabel(/Pictures or PDFs/).setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => page.locator('#item-files-data input').count()).toBe(1);
    await click('Upload files');
    expect(await status()).toBe('1 file item uploaded; 1 available now.');
    expect(await page.getByRole('main').innerText()).toContain('card.png');
  });

  it('imports a file of 100,000 keys as a job with a progress page', { timeout: 900_000 }, async () => {
    const keys = Array.from({ length: KEYS }, (_, i) => {
      const n = i.toString(36).toUpperCase().padStart(8, '0');
      return `BIGK-${n.slice(0, 4)}-${n.slice(4)}`;
    });
    expect(new Set(keys).size).toBe(KEYS);
    await page.goto(`${svc.origin}/console/offers/${offerId}/inventory`);
    await page.getByLabel('Add a text, CSV or TSV file').setInputFiles({
      name: 'big.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(keys.join('\n')),
    });
    await expect.poll(() => page.locator('#key-file-note').innerText(), { timeout: 60_000 }).toContain('big.txt');
    await click('Preview');
    expect(await status()).toBe('100,000 keys will be added from 100,000 lines; 0 lines will not.');
    await click('Store 100,000 keys');
    expect(new URL(page.url()).pathname).toMatch(/\/inventory\/imports\/\S+$/);
    await completed();
    expect(await status()).toMatch(/^100,000 keys added in batch \S+; 0 lines not added\.$/);
    expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.available).toBe(1 + KEYS);
  });

  it('answered no page with a 5xx', () => {
    expect(faults).toEqual([]);
  });
});
