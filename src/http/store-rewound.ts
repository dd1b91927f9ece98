import type { FastifyInstance } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_S } from '../db/faults.js';
import { HttpProblem } from './problem.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The API's writes: the console's forms write through them (in process), and get their 503 as a console page. */
const WRITES_UNDER = ['/api/', '/operator/'];

/**
 * While the instance drops what it held of a store that went back in time and rebuilds its
 * read models from what the store holds (src/store-rewind.ts), every write is refused with
 * 503 and Retry-After: its command would decide on what the instance rebuilds. With its
 * Idempotency-Key, the retry is answered by this instance once it is ready again, or by
 * another meanwhile (`/readyz` says `store_rewound`, so a balancer sends none here).
 */
export const registerRewindRefusal = (app: FastifyInstance, rewound: () => boolean): void => {
  app.addHook('onRequest', (req, _reply, done) => {
    if (!rewound() || READS.has(req.method) || !WRITES_UNDER.some((p) => req.url.startsWith(p))) return done();
    done(
      new HttpProblem(
        'service_unavailable',
        'this instance found its event store went back in time and is rebuilding what it holds from it; retry shortly',
        {},
        { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) },
      ),
    );
  });
};
