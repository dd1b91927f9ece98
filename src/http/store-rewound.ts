import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_S } from '../db/faults.js';
import { HttpProblem, problemBody } from './problem.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The API's writes: the console's forms write through them (in process), and get their 503 as a console page. */
const WRITES_UNDER = ['/api/', '/operator/'];
const RETRY_AFTER = String(UNAVAILABLE_RETRY_AFTER_S);

const isWrite = (req: FastifyRequest) => !READS.has(req.method) && WRITES_UNDER.some((p) => req.url.startsWith(p));

/** How many rewinds the instance had found when each write began. */
const began = new WeakMap<FastifyRequest, number>();

/**
 * Writes and a store that went back in time (src/store-rewind.ts). While the instance drops
 * what it held and rebuilds its read models, every write is refused with 503 and
 * Retry-After: its command would decide on what is being rebuilt. A write already under way
 * when the rewind was found is not answered as done either, whatever it did: its events may
 * be among those lost (committed on the lost history, its answer held back until the read
 * models applied them), or decided on what the instance held of it. It answers 503 instead;
 * its Idempotency-Key is let go with the 5xx, and the retry, with the same key, runs the
 * operation again under its recorded identity and finds what the store holds.
 */
export const registerRewindRefusal = (app: FastifyInstance, store: { rewound(): boolean; rewinds(): number }): void => {
  app.addHook('onRequest', (req, _reply, done) => {
    if (!isWrite(req)) return done();
    if (store.rewound())
      return done(
        new HttpProblem(
          'service_unavailable',
          'this instance found its event store went back in time and is rebuilding what it holds from it; retry shortly',
          {},
          { 'retry-after': RETRY_AFTER },
        ),
      );
    began.set(req, store.rewinds());
    done();
  });
  // before the route's own onSend hooks: the Idempotency-Key stores the 503, not what it replaced
  app.addHook('onSend', (req, reply, payload, done) => {
    const at = began.get(req);
    if (at === undefined || at === store.rewinds() || reply.statusCode >= 500) return done(null, payload);
    req.log.warn(
      { status: reply.statusCode },
      'a write under way when the store was found gone back in time answers 503, not its outcome',
    );
    const body = problemBody(
      req,
      'service_unavailable',
      'this instance found its event store went back in time while the request ran: what it did may be lost; retry it with the same Idempotency-Key',
    );
    reply.code(body.status).type('application/problem+json; charset=utf-8').header('retry-after', RETRY_AFTER);
    done(null, JSON.stringify(body));
  });
};
