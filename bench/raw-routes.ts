/**
 * The raw routes in a process of their own, as the service runs in its own: plain fastify
 * routes on the same database doing only the bare work of a service route, so their figures
 * are the floor the service's are compared with from outside.
 *
 * - `GET /offers/:id`: the offer's read-model row by primary key, one SELECT through `pg`;
 * - `GET /prepared/offers/:id`: the same SELECT as a named prepared statement;
 * - `POST /orders`: an order's event rows (`BENCH_ORDER_ROWS`, default 7) written in one
 *   transaction, one multi-row INSERT into a table shaped like `es_events`, answered 201.
 *
 * Started by `bench/processes.ts` with `BENCH_DATABASE_URL`; prints nothing but its origin
 * over the IPC channel, and stops on `stop`.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { PgClientForPools } from '../src/db/pg-client.js';
import { newId } from '../src/ids.js';

const main = async () => {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is required');
  const rows = Number(process.env.BENCH_ORDER_ROWS ?? 7);
  // the service's pool size, on the same database
  const db = new pg.Pool({ connectionString: url, max: 20, Client: PgClientForPools });
  db.on('error', () => undefined); // an idle connection's end shows on the next query
  await db.query('create table if not exists bench_raw_order_events (like es_events including all)');
  const insert = `insert into bench_raw_order_events (stream_id, stream_revision, event_id, type, data, metadata, created_at) values ${Array.from(
    { length: rows },
    (_, r) => `(${Array.from({ length: 7 }, (_, c) => `$${r * 7 + c + 1}`).join(', ')})`,
  ).join(', ')}`;
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/offers/:id', async (req) => {
    const result = await db.query('select * from offers where id = $1', [req.params.id]);
    return result.rows[0];
  });
  app.get<{ Params: { id: string } }>('/prepared/offers/:id', async (req) => {
    const result = await db.query({
      name: 'offer',
      text: 'select * from offers where id = $1',
      values: [req.params.id],
    });
    return result.rows[0];
  });
  app.post<{ Body: { offer_id: string } }>('/orders', async (req, reply) => {
    const stream = `order-${newId()}`;
    const now = new Date();
    const values = Array.from({ length: rows }, (_, e) => [
      stream,
      e,
      newId(),
      'BenchOrderStep',
      JSON.stringify({ offerId: req.body.offer_id, step: e, amount: 1999 }),
      '{"mode":"test"}',
      now,
    ]).flat();
    // one statement in autocommit is one transaction: a round trip and a commit
    await db.query({ name: 'order-rows', text: insert, values });
    return reply.code(201).send({ id: stream, status: 'completed' });
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (ask: { id: number; kind: string }) => {
    if (ask.kind !== 'stop') return;
    void app
      .close()
      .then(() => db.end())
      .then(() => {
        process.send?.({ id: ask.id, ok: true });
        process.disconnect();
      });
  });
  process.send?.({ ready: origin });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
