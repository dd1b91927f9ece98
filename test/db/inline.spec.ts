import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inlineParameters, literalOf } from '../../src/db/inline.js';
import { StatementRecorder } from '../../src/db/recorder.js';
import { createTestDatabase } from '../support/database.js';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(() => client.end());

/** The statement's rows sent with parameters, and sent as one text with them written in. */
const bothWays = async (text: string, parameters: unknown[]) => {
  const sent = await client.query(text, parameters);
  const inlined = await client.query(inlineParameters(text, parameters));
  return { sent: sent.rows, inlined: inlined.rows };
};

describe('parameters written into a statement', () => {
  it('mean what the same parameters sent apart mean: text, numbers, null, times, arrays, JSON and bytes', async () => {
    const awkward = `it's "quoted", back\\slash \\x00ff, $1 and -- not a comment, ünïcødé 🎮`;
    const at = new Date('2026-11-24T05:06:32.123Z');
    const { sent, inlined } = await bothWays(
      `select $1::text as a, $2::bigint as b, $3::numeric as c, $4::text as d, $5::timestamptz as e,
        $6::text[] as f, $7::jsonb as g, $8::bytea as h, $9::boolean as i, $10::int[] as j,
        '$1 stays' as k, "$2" as l -- $3 stays too
        from (select 1 as "$2") q /* and $4 here */`,
      [
        awkward,
        '9007199254740993',
        1999.5,
        null,
        at,
        [awkward, null, 'a,b', '{x}', ''],
        JSON.stringify({ key: awkward, n: [1, null] }),
        Buffer.from([0, 1, 254, 255]),
        true,
        [1, 2, 3],
      ],
    );
    expect(inlined).toEqual(sent);
    // bigint as the driver is set to read it (src/db/connect.ts sets numbers for the process;
    // this file may share a worker with files that loaded it)
    const int8 = pg.types.getTypeParser(pg.types.builtins.INT8, 'text');
    expect(inlined[0]).toMatchObject({ a: awkward, b: int8('9007199254740993'), e: at, k: '$1 stays', l: 1 });
  });

  it("writes a text literal exactly as pg's escapeLiteral does, quotes and backslashes included", () => {
    const awkward = fc.string({ unit: fc.constantFrom("'", '\\', 'a', 'é', '"', '\n', '🎮') });
    fc.assert(
      fc.property(fc.oneof(awkward, fc.string()), (text) => {
        expect(literalOf(text)).toBe(pg.escapeLiteral(text));
      }),
    );
  });

  it('refuses a placeholder without its parameter', () => {
    expect(() => inlineParameters('select $2::int', [1])).toThrow('statement names parameter $2 of 1');
  });

  it('refuses to record a read, whose rows would never come', async () => {
    const recorder = new StatementRecorder();
    await expect(recorder.db.selectFrom('orders').selectAll().execute()).rejects.toThrow('a read cannot be recorded');
    expect(recorder.statements).toEqual([]);
  });

  it('records a write as a text that writes the same row when sent later', async () => {
    await client.query('create table recorded (id text primary key, at timestamptz, tags text[], doc jsonb)');
    const recorder = new StatementRecorder();
    const row = { id: "o'1", at: new Date('2026-01-02T03:04:05.678Z'), tags: ['a"b', 'c'], doc: '{"x": "y\'z"}' };
    await recorder.db
      .insertInto('recorded' as never)
      .values(row as never)
      .execute();
    expect(recorder.statements).toHaveLength(1);
    await client.query(recorder.statements.join('\n;\n'));
    expect((await client.query('select * from recorded')).rows).toEqual([{ ...row, doc: { x: "y'z" } }]);
  });
});
