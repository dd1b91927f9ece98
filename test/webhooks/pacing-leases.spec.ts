import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { PacingLeases } from '../../src/processes/webhook-pacing-leases.js';
import { createTestDatabase } from '../support/database.js';

let db: Db;
beforeAll(async () => {
  db = connect(await createTestDatabase(), 2);
});
afterAll(() => db.close());

/** A lease holder whose own clock the test moves. */
const holder = (instance: string) => {
  const clock = { ms: 0 };
  return { clock, leases: new PacingLeases(db.kysely, instance, 10_000, () => clock.ms) };
};

const holders = async (endpointId: string) =>
  (
    await db.kysely
      .selectFrom('webhook_pacing_leases')
      .select('instance')
      .where('endpoint_id', '=', endpointId)
      .execute()
  ).map((r) => r.instance);

describe('webhook pacing leases', () => {
  it('one instance holds an endpoint; it asks again once no more than the timeout and 5 s are left', async () => {
    const a = holder('a');
    const b = holder('b');
    expect(await a.leases.take('ep1')).toBe(true);
    expect(await b.leases.take('ep1')).toBe(false);
    expect(await holders('ep1')).toEqual(['a']);

    // more than 15 s left: served from memory, no statement
    a.clock.ms = 14_999;
    expect(a.leases.take('ep1')).toBe(true);
    // no more than a request's 10 s and the 5 s margin left: asked again, and renewed
    a.clock.ms = 15_000;
    const renewed = a.leases.take('ep1');
    expect(renewed).toBeInstanceOf(Promise);
    expect(await renewed).toBe(true);
    a.clock.ms = 29_999;
    expect(a.leases.take('ep1')).toBe(true);
  });

  it('remembers a refusal for a second, and hands its leases back at stop', async () => {
    const a = holder('a');
    const b = holder('b');
    expect(await a.leases.take('ep2')).toBe(true);
    expect(await b.leases.take('ep2')).toBe(false);
    await a.leases.release();
    expect(await holders('ep2')).toEqual([]);

    // within the second, b does not ask
    b.clock.ms = 999;
    expect(b.leases.take('ep2')).toBe(false);
    b.clock.ms = 1_000;
    expect(await b.leases.take('ep2')).toBe(true);
    expect(await holders('ep2')).toEqual(['b']);
    expect(await a.leases.take('ep2')).toBe(false);
  });
});
