import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploaded, textKeys, upload } from '../offers/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import { hiddenOf } from '../console/visitor.js';

/**
 * A supplier's write answers once its events are stored; the read models apply it after,
 * and the supplier's next read on the instance waits until they have (src/projections/read-fence.ts).
 */
describe('read-your-writes without a write waiting for the read models', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let blocker: pg.Client;
  beforeAll(async () => {
    svc = await startTestService({ trustedCa: tls.cert });
    blocker = new pg.Client({ connectionString: svc.databaseUrl });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker.end();
    await svc.stop();
  });

  const availableInReadModel = async (offerId: string) =>
    (await blocker.query<{ n: number }>('select stock_available as n from offers where id = $1', [offerId])).rows[0]!.n;

  it('answers an upload while the read models are held, and the next read waits for them and sees it', async () => {
    const { api } = await svc.newSupplier();
    const offer = await createUploaded(api, (await svc.newProduct()).id);
    expect((await api.get(`/offers/${offer.id}`)).body.stock.available).toBe(0);
    // every projection batch claims its checkpoints first: this lock holds them all
    await blocker.query('begin');
    await blocker.query('lock table projection_checkpoints in exclusive mode');
    let released = false;
    let committed = false;
    try {
      const uploaded = await upload(api, offer.id, textKeys('FENCE', 3));
      expect(uploaded.stock_available).toBe(3);
      // answered from the command's state: the read model has not applied the upload
      expect(await availableInReadModel(offer.id)).toBe(0);
      let answered = false;
      const read = api.get(`/offers/${offer.id}`).then((res) => ((answered = true), { res, released }));
      // the read reached the service and waits there while the read models are held
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      // marked before the commit is sent: the service may see the lock go and answer before the commit's reply arrives here
      released = true;
      await blocker.query('commit');
      committed = true;
      const { res, released: answeredAfterRelease } = await read;
      expect(answeredAfterRelease).toBe(true);
      expect(res.status).toBe(200);
      expect(res.body.stock).toEqual({ mode: 'uploaded', declared: null, available: 3, reserved: 0, delivered: 0 });
    } finally {
      if (!committed) await blocker.query('rollback');
    }
  });
  /** A console session over plain HTTP: the sign-in form's cookie and CSRF token, then the session's. */
  const consoleSession = async (token: string) => {
    const jar = new Map<string, string>();
    const send = async (path: string, form?: Record<string, string>) => {
      const res = await fetch(`${svc.origin}${path}`, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form && { 'content-type': 'application/x-www-form-urlencoded', origin: svc.origin }),
        },
        ...(form && { body: new URLSearchParams(form).toString() }),
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return { status: res.status, text: await res.text() };
    };
    const csrfOf = (text: string) => /name="_csrf" value="([^"]+)"/.exec(text)![1]!;
    const signIn = await send('/console/sign-in');
    expect((await send('/console/sign-in', { _csrf: csrfOf(signIn.text), token })).status).toBe(303);
    return { send };
  };

  it('answers a console form only once the read models applied its change: the redirect may reach another instance', async () => {
    const receiver = await startReceiver({ tls });
    const { api, token } = await svc.newSupplier();
    const hook = await api.post('/webhooks', { url: receiver.url, events: ['order.paid'] });
    expect(hook.status, hook.text).toBe(201);
    expect((await api.patch(`/webhooks/${hook.body.id}`, { status: 'disabled' })).body.status).toBe('disabled');
    const { send } = await consoleSession(token);
    const enable = `/console/webhooks/${hook.body.id}/enable`;
    const form = hiddenOf({ ...(await send(`/console/webhooks/${hook.body.id}`)), location: null }, enable);
    const statusInReadModel = async () =>
      (await blocker.query<{ status: string }>('select status from webhook_endpoints where id = $1', [hook.body.id]))
        .rows[0]!.status;
    expect(await statusInReadModel()).toBe('disabled');

    await blocker.query('begin');
    await blocker.query('lock table projection_checkpoints in exclusive mode');
    let released = false;
    let committed = false;
    try {
      let answered = false;
      // re-enabling answers from the endpoint's own state, after a passing test-fire
      const posted = send(enable, form).then((res) => {
        answered = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      // marked before the commit is sent: the service may see the lock go and answer before the commit's reply arrives here
      released = true;
      await blocker.query('commit');
      expect((await posted).status).toBe(303);
      // what any instance reads next
      expect(await statusInReadModel()).toBe('active');
    } finally {
      if (!committed) await blocker.query('rollback');
      await receiver.close();
    }
  });
});
