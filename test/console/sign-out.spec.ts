import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { SESSION_COOKIE } from '../../src/http/console/session.js';
import { startTestService, type TestService } from '../support/harness.js';
import { csrfOf, newForm, signIn, type Visitor, visitor } from './visitor.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('console sessions end on the server', () => {
  let a: TestService;
  let b: TestService;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let offerId: string;

  beforeAll(async () => {
    // two instances on one database behind a balancer: one service key, so each opens the other's cookies
    const secretKey = newSecretKey();
    a = await startTestService({ secretKey });
    b = await startTestService({
      databaseUrl: a.databaseUrl,
      operatorToken: a.operatorToken,
      clock: a.clock,
      secretKey,
    });
    alpha = await a.newSupplier('Alpha Keys');
    const product = await a.newProduct();
    const offer = await alpha.api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: eur(1000),
      external_ref: 'ALPHA-STAR',
    });
    expect(offer.status, offer.text).toBe(201);
    offerId = offer.body.id;
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  const price = async () => (await alpha.api.get(`/offers/${offerId}`)).body.price;
  const pricePath = () => `/console/offers/${offerId}/price`;
  /** Someone else's browser holding a copy of a session cookie. */
  const replaying = (origin: string, cookie: string): Visitor => {
    const v = visitor(origin);
    v.jar.set(SESSION_COOKIE, cookie);
    return v;
  };
  /** The cookie is signed out: its price form changes nothing, and pages and forms lead to sign-in. */
  const refused = async (v: Visitor, csrf: string, expected: number) => {
    const posted = await v.post(pricePath(), { ...newForm(csrf), price: '15.00' });
    expect(await price()).toEqual(eur(expected));
    expect(posted).toMatchObject({ status: 303, location: '/console/sign-in' });
    expect(await v.get('/console/offers')).toMatchObject({ status: 303, location: '/console/sign-in' });
    expect(await v.get(`/console/offers/${offerId}`)).toMatchObject({ status: 303, location: '/console/sign-in' });
    const landing = await v.get('/console/sign-in');
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('<h1>Sign in</h1>');
  };
  const signedInAs = async (v: Visitor) => {
    const page = await v.get(`/console/offers/${offerId}`);
    expect(page.status).toBe(200);
    return csrfOf(page);
  };
  const signOut = async (v: Visitor, csrf: string) => {
    expect(await v.post('/console/sign-out', newForm(csrf))).toMatchObject({
      status: 303,
      location: '/console/sign-in',
    });
    expect(v.jar.has(SESSION_COOKIE)).toBe(false);
  };

  it('after sign-out, a kept copy of the cookie opens no page and its price form changes nothing', async () => {
    const browser = visitor(a.origin);
    await signIn(browser, alpha.token);
    const csrf = await signedInAs(browser);
    // signed in, this very form changes the price
    expect(await browser.post(pricePath(), { ...newForm(csrf), price: '12.50' })).toMatchObject({
      status: 303,
      location: `/console/offers/${offerId}?notice=Price%20changed.`,
    });
    expect(await price()).toEqual(eur(1250));
    const kept = browser.jar.get(SESSION_COOKIE)!;

    await signOut(browser, csrf);
    await refused(replaying(a.origin, kept), csrf, 1250);
  });

  it('signed out on one instance, the cookie is refused on the other', async () => {
    const browser = visitor(a.origin);
    await signIn(browser, alpha.token);
    const csrf = await signedInAs(browser);
    const kept = browser.jar.get(SESSION_COOKIE)!;
    // the other instance opens the session while it lasts
    await signedInAs(replaying(b.origin, kept));

    await signOut(browser, csrf);
    await refused(replaying(b.origin, kept), csrf, 1250);
  });

  it('revoking the token a session was opened with ends that session on every instance, and no other', async () => {
    const issued = await a.operator.post(`/suppliers/${alpha.id}/tokens`);
    expect(issued.status, issued.text).toBe(201);
    const browser = visitor(a.origin);
    await signIn(browser, issued.body.token);
    const csrf = await signedInAs(browser);
    const other = visitor(a.origin);
    await signIn(other, alpha.token);

    expect((await a.operator.delete(`/suppliers/${alpha.id}/tokens/${issued.body.token_id}`)).status).toBe(204);
    await refused(browser, csrf, 1250);
    await refused(replaying(b.origin, browser.jar.get(SESSION_COOKIE)!), csrf, 1250);
    // the supplier's session of its other token goes on
    await signedInAs(other);
  });

  it("the session's row is what counts: expired on the server, the cookie is refused though its own time runs on", async () => {
    const browser = visitor(a.origin);
    await signIn(browser, alpha.token);
    const csrf = await signedInAs(browser);
    await a.services.plainDb.updateTable('console_sessions').set({ expires_at: a.clock.now() }).execute();
    await refused(browser, csrf, 1250);
  });

  // last: it moves the clock both instances share
  it('a session ends after its 8 hours, and the hourly maintenance forgets it', async () => {
    const sessions = () => a.services.plainDb.selectFrom('console_sessions').select('expires_at').execute();
    await a.services.plainDb.deleteFrom('console_sessions').execute();
    const browser = visitor(a.origin);
    await signIn(browser, alpha.token);
    const csrf = await signedInAs(browser);
    const expiresAt = new Date(a.clock.now().getTime() + 8 * 3600_000);
    expect(await sessions()).toEqual([{ expires_at: expiresAt }]);

    await a.advance(8 * 3600 - 1); // the maintenance ran meanwhile, and kept it
    await signedInAs(browser);
    expect(await sessions()).toEqual([{ expires_at: expiresAt }]);
    await a.advance(1);
    await refused(browser, csrf, 1250);
    await a.advance(3600); // its next run
    expect(await sessions()).toEqual([]);
  });
});
