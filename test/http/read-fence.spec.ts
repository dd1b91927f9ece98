import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploaded, textKeys, upload } from '../offers/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';

/**
 * A supplier's write answers once its events are stored; the read models apply it after,
 * and the supplier's next read on the instance waits until they have (src/projections/read-fence.ts).
 */
describe('read-your-writes without a write waiting for the read models', () => {
  let svc: TestService;
  let blocker: pg.Client;
  beforeAll(async () => {
    svc = await startTestService();
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
    try {
      const uploaded = await upload(api, offer.id, textKeys('FENCE', 3));
      expect(uploaded.stock_available).toBe(3);
      // answered from the command's state: the read model has not applied the upload
      expect(await availableInReadModel(offer.id)).toBe(0);
      const read = api.get(`/offers/${offer.id}`).then((res) => ({ res, released }));
      await blocker.query('commit');
      released = true;
      const { res, released: answeredAfterRelease } = await read;
      expect(answeredAfterRelease).toBe(true);
      expect(res.status).toBe(200);
      expect(res.body.stock).toEqual({ mode: 'uploaded', declared: null, available: 3, reserved: 0, delivered: 0 });
    } finally {
      if (!released) await blocker.query('rollback');
    }
  });
});
