import pg from 'pg';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDatabaseRelay } from '../faults/support.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { CHROMIUM, expectAccessible, LAUNCH } from './browser.js';

/**
 * The console while its database is away: the network to Postgres is cut (a real relay in
 * between, the database itself untouched). A page whose session cannot be looked up, and a
 * sign-in whose token the API cannot check, answer a console page saying to try again, 503
 * with Retry-After, never a 500 and never a wrong "invalid token"; once the network is back
 * the same pages answer as before. A fault of the service's own is a 500 console page whose
 * reference finds it in the log.
 */
describe.skipIf(!CHROMIUM)('the console while the database is unreachable', () => {
  let directUrl: string;
  let relay: Awaited<ReturnType<typeof startDatabaseRelay>>;
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let fresh: Awaited<ReturnType<TestService['newSupplier']>>;

  beforeAll(async () => {
    directUrl = await createTestDatabase();
    relay = await startDatabaseRelay(directUrl);
    svc = await startTestService({ databaseUrl: relay.url });
    alpha = await svc.newSupplier('Alpha Keys');
    // a token the API has never seen: its check needs the database
    fresh = await svc.newSupplier('Fresh Keys');
    browser = await chromium.launch(LAUNCH);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${svc.origin}/console/sign-in`);
    await page.getByLabel('Supplier API token').fill(alpha.token);
    await Promise.all([page.waitForURL('**/console/offers'), page.getByRole('button', { name: 'Sign in' }).click()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await relay?.close();
  });

  const expectRetryPage = async (p: Page, status: number | undefined, retryAfter: string | null | undefined) => {
    expect(status).toBe(503);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(await p.getByRole('alert').innerText()).toBe('The service cannot answer right now. Try again in a moment.');
    expect(await p.title()).toBe('Unavailable · Supplier console');
    await expectAccessible(p);
  };

  it('a signed-in page answers 503 with a page saying to try again, and the page again once the database is back', async () => {
    relay.cut();
    const during = await page.goto(`${svc.origin}/console/offers`);
    await expectRetryPage(page, during?.status(), await during?.headerValue('retry-after'));
    relay.restore();
    // the pool connects anew: until it has (a moment, longer on a busy machine) the page
    // still says to try again, and then it is the page again
    const deadline = Date.now() + 15_000;
    let after = await page.goto(`${svc.origin}/console/offers`);
    while (after?.status() === 503 && Date.now() < deadline) {
      await expectRetryPage(page, after.status(), await after.headerValue('retry-after'));
      await new Promise((r) => setTimeout(r, 250));
      after = await page.goto(`${svc.origin}/console/offers`);
    }
    expect(after?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Offers');
  });

  it('a sign-in the API cannot check answers 503, not "not a valid token", and signs in once it can', async () => {
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${svc.origin}/console/sign-in`);
    await other.getByLabel('Supplier API token').fill(fresh.token);
    relay.cut();
    const [during] = await Promise.all([
      other.waitForResponse((r) => r.request().method() === 'POST'),
      other.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await other.waitForLoadState('load');
    await expectRetryPage(other, during.status(), await during.headerValue('retry-after'));
    expect(await other.content()).not.toContain('not a valid supplier token');
    relay.restore();
    await other.goto(`${svc.origin}/console/sign-in`);
    await other.getByLabel('Supplier API token').fill(fresh.token);
    await Promise.all([other.waitForURL('**/console/offers'), other.getByRole('button', { name: 'Sign in' }).click()]);
    expect(await other.getByRole('heading', { level: 1 }).innerText()).toBe('Offers');
    await other.context().close();
  });

  it('no console answer while the database was away was a 500', () => {
    const failed = svc.logs.filter((l) => l.msg === 'console page failed' || (l.res as any)?.statusCode >= 500);
    expect(failed.map((l) => (l.res as any)?.statusCode ?? l.msg).filter((x) => x !== 503)).toEqual([]);
  });

  it('a fault of the service itself (a table it reads is missing) is a 500 console page with a reference to quote', async () => {
    const admin = new pg.Client({ connectionString: directUrl });
    await admin.connect();
    await admin.query('alter table console_sessions rename to console_sessions_away');
    try {
      const during = await page.goto(`${svc.origin}/console/offers`);
      expect(during?.status()).toBe(500);
      expect(await during?.headerValue('content-type')).toBe('text/html; charset=utf-8');
      const said = await page.getByRole('alert').innerText();
      const reference = /tell us this reference: (\S+)\.$/.exec(said)?.[1];
      expect(said).toBe(
        `Something went wrong on our side. Try again, and if it keeps happening tell us this reference: ${reference}.`,
      );
      // the reference finds the logged fault, with its stack
      const logged = svc.logs.filter((l) => l.msg === 'console page failed');
      expect(logged.map((l) => l.trace_id)).toEqual([reference]);
      expect((logged[0]!.err as { stack?: string }).stack).toContain('console_sessions');
      await expectAccessible(page);
    } finally {
      await admin.query('alter table console_sessions_away rename to console_sessions');
      await admin.end();
    }
    expect((await page.goto(`${svc.origin}/console/offers`))?.status()).toBe(200);
  });
});
