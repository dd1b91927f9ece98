import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { prepare } from './prepared.js';

/**
 * A query that kysely builds and compiles once, then runs with each call's own parameters.
 * Kysely rebuilds its operation tree and compiles the SQL on every execution, which was a
 * twentieth of a hot read's CPU. `build` receives placeholders (values standing for the
 * parameters, in order) and must use each exactly once, as plain values, so the compiled
 * parameter list holds them in place: the first call checks that it does. Its fixed text goes
 * as a named prepared statement, parsed and planned once per connection.
 */
export const compiledOnce = <DB, Row, Params extends unknown[]>(
  build: (db: Kysely<DB>, ...params: Params) => Compilable<Row>,
) => {
  const compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<Row>; slots: number[] }>();
  return async (db: Kysely<DB>, ...params: Params): Promise<Row[]> => {
    let entry = compiled.get(db);
    if (!entry) {
      const markers = params.map((_, i) => `\u0000param:${i}`) as Params;
      const query = build(db, ...markers).compile();
      const slots = query.parameters.map((p) => markers.indexOf(p as never));
      if (slots.length !== params.length || slots.some((s) => s === -1) || new Set(slots).size !== params.length)
        throw new Error('compiledOnce: each parameter must appear exactly once, as a plain value');
      prepare(query.sql);
      compiled.set(db, (entry = { query, slots }));
    }
    const { query, slots } = entry;
    const { rows } = await db.executeQuery<Row>({ ...query, parameters: slots.map((s) => params[s]) });
    return rows;
  };
};
