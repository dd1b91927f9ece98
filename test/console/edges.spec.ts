import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_LIMITS, readForm } from '../../src/http/console/form-body.js';
import { SIGN_IN_COOKIE } from '../../src/http/console/session.js';
import {
  createDeclared,
  createUploaded,
  eur,
  type Fulfilment,
  startFulfilment,
  textKeys,
  upload,
} from '../offers/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import { csrfOf, hiddenOf, signIn, type Visit, type Visitor, visitor } from './visitor.js';

/** Every field a page's forms post, with the value the page gives it (the first option of a select). */
const formsWithFields = (page: Visit) =>
  [...page.text.matchAll(/<form\b[^>]*method="post"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].map(
    ([, action, inner]) => {
      const fields: Record<string, string> = {};
      for (const [, name, value] of inner!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
        fields[name!] ??= value!;
      for (const [, name] of inner!.matchAll(/<(?:input|textarea)[^>]*name="([^"]+)"/g)) fields[name!] ??= 'x';
      for (const [, name, value] of inner!.matchAll(/<select[^>]*name="([^"]+)"[^>]*><option value="([^"]*)"/g))
        fields[name!] ??= value!;
      return { action: action!, fields };
    },
  );

/** Console links of a page (its own URLs, the fragments and the sign-out left out). */
const linksOf = (page: Visit) =>
  [...page.text.matchAll(/href="(\/console[^"#]*)"/g)].map(([, href]) => href!.replace(/&amp;/g, '&'));

/** Asks a URL every 5 ms until its standard input ends, then prints how many answered and the slowest. */
const PROBER = `
const url = process.argv[1];
let open = true, count = 0, slowestMs = 0;
process.stdin.on('end', () => (open = false)).resume();
(async () => {
  // the first call sets up the connection and compiles the client: not the service's time
  await (await fetch(url)).arrayBuffer();
  console.log('probing');
  while (open) {
    const t0 = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error('healthz answered ' + res.status);
    count++;
    slowestMs = Math.max(slowestMs, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  console.log(JSON.stringify({ count, slowestMs }));
})();
`;

const urlencoded = (pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

describe('the console at its edges', () => {
  let svc: TestService;
  let alpha: Awaited<ReturnType<TestService['newSupplier']>>;
  let offerId: string;
  let browser: Visitor;

  const post = async (v: Visitor, path: string, body: string | Buffer) => {
    const res = await fetch(`${svc.origin}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: [...v.jar].map(([k, x]) => `${k}=${x}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
        origin: svc.origin,
      },
      body,
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };

  const tls = selfSignedCertificate();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fulfilment: Fulfilment;

  beforeAll(async () => {
    // the large forms' rounds post up to 20 times without a session, more than the
    // unauthenticated class's 30 a minute leaves with the visits around them; the class's own
    // metering has a test of its own below
    svc = await startTestService({ trustedCa: tls.cert, limits: { unauthenticated: 1000 } });
    receiver = await startReceiver({ tls });
    fulfilment = await startFulfilment();
    alpha = await svc.newSupplier('Alpha Keys');
    const product = await svc.newProduct();
    offerId = (await createUploaded(alpha.api, product.id, { external_ref: 'ALPHA-EDGE' })).id;
    expect((await alpha.api.post(`/offers/${offerId}/activate`)).status).toBe(200);
    await upload(alpha.api, offerId, textKeys('EDGE', 12));
    // every kind of form a supplier meets: a declared offer's, a pricing rule's, an endpoint's and a delivery's
    await createDeclared(alpha.api, (await svc.newProduct()).id, fulfilment.url);
    const rule = { max_changes_per_hour: 60, beat_by: { amount: 10 }, floor: eur(500), ceiling: eur(1500) };
    expect((await alpha.api.put(`/offers/${offerId}/pricing-rule`, rule)).status).toBe(200);
    const hook = await alpha.api.post('/webhooks', { url: receiver.url, events: ['order.paid'] });
    expect(hook.status, hook.text).toBe(201);
    expect((await alpha.api.post(`/webhooks/${hook.body.id}/test`, { event: 'order.paid' })).status).toBe(200);
    browser = visitor(svc.origin);
    await signIn(browser, alpha.token);
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    await receiver?.close();
    await fulfilment?.close();
  });

  it('reads a form in linear time: 1 MiB of repeated names is refused at once, and /healthz answers meanwhile', async () => {
    const body = Buffer.from('a&'.repeat(512 * 1024));
    const anonymous = visitor(svc.origin);
    // the sign-in form is read for anyone; another form of someone not signed in is not read
    // at all (sent to sign in); a signed-in supplier's forms are read, a file of keys' up to 32 MiB
    const targets: [Visitor, string, number][] = [
      [anonymous, '/console/sign-in', 413],
      [anonymous, '/console/payouts', 303],
      [anonymous, `/console/offers/${offerId}/inventory`, 303],
      [browser, '/console/payouts', 413],
      [browser, `/console/offers/${offerId}/inventory`, 413],
    ];
    // /healthz asked every few ms from a process of its own while the large forms are posted
    // one after another: the CPU this process spends is then the posts' alone
    const round = async (sent: Buffer) => {
      const prober = spawn(process.execPath, ['-e', PROBER, `${svc.origin}/healthz`], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let report = '';
      prober.stdout.on('data', (chunk) => (report += chunk));
      const probed = new Promise((resolve) => prober.on('close', resolve));
      await new Promise((resolve) => prober.stdout.once('data', resolve)); // it has started probing
      const costs: { path: string; cpuMs: number; wallMs: number }[] = [];
      for (const [v, path, status] of targets) {
        const [cpu0, t0] = [process.cpuUsage(), performance.now()];
        const res = await post(v, path, sent);
        const cpu = process.cpuUsage(cpu0);
        costs.push({ path, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 });
        if (sent !== body) continue;
        expect(res.status, path).toBe(status);
        if (status === 303) expect(res.location).toBe('/console/sign-in');
        else expect(res.text, path).toContain('<header>');
      }
      prober.stdin.end();
      await probed;
      const probes = JSON.parse(report.slice(report.indexOf('\n') + 1)) as { count: number; slowestMs: number };
      expect(probes.count).toBeGreaterThan(0);
      return { costs, probes };
    };
    // Rounds of the large posts, each beside a control round of the same posts with a form
    // of one field, on the same machine at the same moment: the least of up to ten of each,
    // each measure on its own. On an idle machine the control answers in a few ms; on a busy
    // one the control takes the machine's delays too, and the large forms may add at most
    // the bounds to them. A form read in quadratic time stalls every round by minutes
    const small = Buffer.from('a=1');
    type Round = Awaited<ReturnType<typeof round>>;
    const large: Round[] = [];
    const control: Round[] = [];
    const least = (rounds: Round[], of: (r: Round) => number) => Math.min(...rounds.map(of));
    const added = (of: (r: Round) => number) => least(large, of) - least(control, of);
    const met = () =>
      targets.every((_, i) => least(large, (r) => r.costs[i]!.cpuMs) < 100 && added((r) => r.costs[i]!.wallMs) < 100) &&
      added((r) => r.probes.slowestMs) < 50;
    while (large.length < 3 || (large.length < 10 && !met())) {
      control.push(await round(small));
      large.push(await round(body));
    }
    const seen = JSON.stringify({ large, control });
    targets.forEach(([, path], i) => {
      // the service runs in this process: the CPU the process spent on a post (the client's
      // sending included) bounds how long the post could hold the event loop
      expect(
        least(large, (r) => r.costs[i]!.cpuMs),
        `${path}: ${seen}`,
      ).toBeLessThan(100);
      // and its 4xx (or its way to sign in) came within 100 ms of a one-field form's
      expect(
        added((r) => r.costs[i]!.wallMs),
        `${path}: ${seen}`,
      ).toBeLessThan(100);
    });
    // and /healthz, asked all along from outside, answered every probe of a round within 50 ms
    // of the control's slowest
    expect(
      added((r) => r.probes.slowestMs),
      seen,
    ).toBeLessThan(50);
  });

  it('counts pairs before building any, and bounds the repeats of a name', () => {
    const many = 'a=1&'.repeat(FORM_LIMITS.fields + 1);
    expect(() => readForm(many)).toThrow(`This form sends more than 2,000 fields.`);
    expect(readForm('a=1&'.repeat(FORM_LIMITS.repeats)).a).toHaveLength(FORM_LIMITS.repeats);
    expect(() => readForm('a=1&'.repeat(FORM_LIMITS.repeats + 1))).toThrow(
      'This form sends one field more than 1,000 times.',
    );
    const form = readForm('x=1&x=2&name=%20Alpha+Keys%20');
    expect({ ...form }).toEqual({ x: ['1', '2'], name: ' Alpha Keys ' });
    expect(Object.getPrototypeOf(form)).toBe(null);
  });

  it('meters the console before sign-in by address, in the unauthenticated class', async () => {
    // a service of its own: the limit spends the address's budget for a minute
    const limited = await startTestService({ limits: { unauthenticated: 3 } });
    try {
      const anonymous = visitor(limited.origin);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const page = await anonymous.get('/console/sign-in');
        statuses.push(page.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await anonymous.get('/console/sign-in');
      expect(refused.text).toContain('Too many requests from here: wait');
    } finally {
      await limited.stop();
    }
  });

  it('a payout form posted twice, one after the other or at once, pays once per form', async () => {
    // money available: a paid sandbox order past its hold
    const order = await alpha.api.post('/sandbox/orders', { offer_id: offerId, quantity: 6, buyer_country: 'DE' });
    expect(order.status, order.text).toBe(201);
    const sale = (await alpha.api.get('/balance/entries?type=sale')).body.data.at(-1);
    await svc.advance(Math.ceil((Date.parse(sale.available_at) - svc.clock.now().getTime()) / 1000) + 60);
    expect((await alpha.api.get('/balance')).body.available.amount).toBeGreaterThanOrEqual(4000);
    // the request form asks for a destination: a bank account, the default
    const bank = await alpha.api.post('/payout-destinations', {
      method: 'sepa_bank_transfer',
      iban: 'DE89370400440532013000',
      holder_name: 'Alpha Keys',
    });
    expect(bank.status, bank.text).toBe(201);

    const payoutForm = async () =>
      urlencoded([
        ...Object.entries(hiddenOf(await browser.get('/console/payouts'), '/console/payouts')),
        ['amount', '20.00'],
      ]);
    const once = await payoutForm();
    const first = await post(browser, '/console/payouts', once);
    const again = await post(browser, '/console/payouts', once);
    expect(first).toMatchObject({ status: 303 });
    expect(again.status).toBe(303);
    expect(again.location).toBe(first.location);

    const twice = await payoutForm();
    const [a, b] = await Promise.all([
      post(browser, '/console/payouts', twice),
      post(browser, '/console/payouts', twice),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.location).toBe(b.location);
    expect(a.location).not.toBe(first.location);

    const payouts = (await alpha.api.get('/payouts')).body.data;
    expect(payouts.map((p: any) => p.amount)).toEqual([eur(2000), eur(2000)]);
  });

  it('a sandbox-order form posted twice places one order', async () => {
    const before = (await alpha.api.get('/orders?limit=100')).body.data.length;
    const action = `/console/offers/${offerId}/sandbox-order`;
    const form = urlencoded([
      ...Object.entries(hiddenOf(await browser.get(`/console/offers/${offerId}`), action)),
      ['scenario', 'paid'],
      ['quantity', '1'],
      ['buyer_country', 'DE'],
    ]);
    const [first, second] = [await post(browser, action, form), await post(browser, action, form)];
    expect(first.status).toBe(303);
    expect(second).toEqual(first);
    expect((await alpha.api.get('/orders?limit=100')).body.data.length).toBe(before + 1);
  });

  it('a form without the token of its rendering is refused and writes nothing', async () => {
    const csrf = csrfOf(await browser.get('/console/payouts'));
    const res = await post(
      browser,
      '/console/payouts',
      urlencoded([
        ['_csrf', csrf],
        ['amount', '20.00'],
      ]),
    );
    expect(res.status).toBe(403);
    expect((await alpha.api.get('/payouts')).body.data).toHaveLength(2);
  });

  it('a NUL or a prototype name in any form or query of any page answers a 4xx page and changes nothing', async () => {
    // every page a supplier reaches from the offers page, two links deep, and each of their forms
    const pages = new Map<string, Visit>();
    const visit = async (path: string) => {
      // one month's statement stands for all (they have no forms)
      if (pages.has(path) || /\.csv|\/print|statements\/\d{4}-(?!01)/.test(path)) return;
      const page = await browser.get(path);
      if (page.status === 200 && page.text.includes('<header>')) pages.set(path, page);
    };
    await visit('/console/offers');
    for (let depth = 0; depth < 3; depth++)
      for (const page of [...pages.values()]) for (const link of linksOf(page)) await visit(link);
    const forms = new Map<string, Record<string, string>>();
    for (const page of pages.values())
      for (const f of formsWithFields(page)) if (f.action !== '/console/sign-out') forms.set(f.action, f.fields);
    // a form of each console route that writes (the sign-in's below; the sign-out writes through no API)
    const routes = [...forms.keys()].map((a) =>
      a
        .replace(/\/console\/(offers|webhooks|webhooks\/deliveries)\/[0-9A-Z]{26}/, '/console/$1/:id')
        .replace(/\/console\/(payouts|payouts\/destinations)\/(po|pd)_[0-9A-Z]{26}/, '/console/$1/:id'),
    );
    expect([...new Set(routes)].sort()).toEqual([
      '/console/offers',
      '/console/offers/:id/activate',
      '/console/offers/:id/deactivate',
      '/console/offers/:id/edit',
      // the key import's store (`…/inventory`) is on the preview's page, reached by a post
      '/console/offers/:id/inventory/files',
      '/console/offers/:id/inventory/preview',
      '/console/offers/:id/inventory/withdraw',
      '/console/offers/:id/pricing/remove',
      '/console/offers/:id/pricing/save',
      '/console/offers/:id/rotate-secret',
      '/console/offers/:id/sandbox-order',
      '/console/offers/:id/stock',
      '/console/payouts',
      // a pending payout's cancellation and a destination's removal, each on its confirmation page
      '/console/payouts/:id/cancel',
      '/console/payouts/destinations',
      '/console/payouts/destinations/:id/remove',
      '/console/webhooks',
      '/console/webhooks/:id/delete',
      '/console/webhooks/:id/disable',
      '/console/webhooks/:id/recover',
      '/console/webhooks/:id/rotate-secret',
      '/console/webhooks/:id/save',
      '/console/webhooks/:id/test',
      '/console/webhooks/deliveries/:id/resend',
    ]);
    const events = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from es_events`.execute(svc.services.plainDb)).rows[0]!.n;
    const stored = await events();

    const answers: string[] = [];
    for (const [action, fields] of forms) {
      const named = Object.keys(fields).filter((n) => !n.startsWith('_'));
      for (const name of named.length ? named : ['_form']) {
        const res = await post(browser, action, urlencoded(Object.entries({ ...fields, [name]: `a\u0000b` })));
        answers.push(`${res.status} NUL ${name} ${action}`);
      }
      for (const probe of ['__proto__', 'constructor', 'prototype']) {
        const res = await post(browser, action, `${urlencoded(Object.entries(fields))}&${probe}=x&${probe}=y`);
        answers.push(`${res.status} ${probe} ${action}`);
      }
    }
    for (const path of pages.keys()) {
      const join = path.includes('?') ? '&' : '?';
      for (const q of ['x=%00', 'status=%00', '__proto__=x&__proto__=y', 'constructor=x']) {
        const res = await browser.get(`${path}${join}${q}`);
        answers.push(`${res.status} GET ${path}${join}${q}`);
      }
    }
    const anonymous = visitor(svc.origin);
    const page = await anonymous.get('/console/sign-in');
    const nul = await post(
      anonymous,
      '/console/sign-in',
      urlencoded([
        ['_csrf', csrfOf(page)],
        ['token', '\u0000'],
      ]),
    );
    answers.push(`${nul.status} NUL token /console/sign-in`);
    const bad = answers.filter((a) => !/^4\d\d /.test(a));
    expect(bad).toEqual([]);
    expect(await events()).toEqual(stored);
  });

  it('makes the sign-in form its own CSRF token, never one the browser already holds', async () => {
    const planted = visitor(svc.origin);
    planted.jar.set(SIGN_IN_COOKIE, 'planted-by-someone-else-000000000000');
    const page = await planted.get('/console/sign-in');
    expect(csrfOf(page)).not.toBe('planted-by-someone-else-000000000000');
    expect(planted.jar.get(SIGN_IN_COOKIE)).toBe(encodeURIComponent(csrfOf(page)));
    const forged = visitor(svc.origin);
    forged.jar.set(SIGN_IN_COOKIE, 'planted-by-someone-else-000000000000');
    const answer = await forged.post('/console/sign-in', {
      _csrf: 'planted-by-someone-else-000000000000',
      token: alpha.token,
    });
    expect(answer.status).toBe(403);
  });
});
