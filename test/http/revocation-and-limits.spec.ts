import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.js';
import { connect, type Db } from '../../src/db/connect.js';
import { RateLimiter } from '../../src/http/rate-limiter.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { client } from '../support/http.js';

describe('token revocation across instances', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    a = await startTestService();
    // a second instance on the same database, as behind a load balancer
    b = await startTestService({ databaseUrl: a.databaseUrl, operatorToken: a.operatorToken, clock: a.clock });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('a token revoked on one instance is refused by the other within one second', async () => {
    const supplier = await a.newSupplier('Two Instances');
    const onB = client(b.baseUrl, supplier.token);
    expect((await onB.get('/whoami')).status).toBe(200); // now known to B's token cache
    const revoked = await a.operator.delete(
      `/suppliers/${supplier.id}/tokens/${(await onB.get('/whoami')).body.token_id}`,
    );
    expect(revoked.status).toBe(204);
    expect((await client(a.baseUrl, supplier.token).get('/whoami')).status).toBe(401);
    // the cache is wall-clock (not the test clock): one second after the revocation B refuses it
    await sleep(1000);
    expect((await onB.get('/whoami')).status).toBe(401);
  });
});

describe('the rate limiter under concurrency', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 10);
  });
  afterAll(() => db.close());

  it('admits exactly the limit when many requests of several tokens race for one supplier bucket', async () => {
    const at = new Date('2026-03-01T00:00:10.000Z');
    const limiter = new RateLimiter(db.kysely, new TestClock(at));
    const hits = Array.from({ length: 320 }, (_, i) =>
      limiter.hit(
        [
          { name: `token:t${i % 4}:reads`, limit: 70 },
          { name: 'supplier:race', limit: 200 },
        ],
        at,
      ),
    );
    const verdicts = await Promise.all(hits);
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(200);
    expect(await limiter.flush()).toBe(true);
    const rows = await db.kysely
      .selectFrom('rate_limit_hits')
      .select(['bucket', 'hits'])
      .where('bucket', '=', 'supplier:race')
      .execute();
    expect(rows).toEqual([{ bucket: 'supplier:race', hits: 200 }]);
  });
});
