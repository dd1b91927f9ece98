import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Reachability, READ_WAIT_MS } from '../db/reachability.js';
import { type ReadRoute, readRoutes, writeNotes } from '../db/read-route.js';
import { comparePositions, formatPosition, parsePosition, type Position } from '../eventstore/port.js';
import type { ProjectionRunner } from '../projections/runner.js';

/** The header a write's answer carries its position in, and a read may send back. */
export const COMMIT_POSITION_HEADER = 'x-svc-commit-position';

/**
 * A token's writes are followed this long: a read after it waits for a replica to have
 * replayed them. Past it, any replica that is up has (replication runs in milliseconds).
 */
const FOLLOW_MS = 10_000;
const FOLLOWED_TOKENS = 10_000;

interface Followed {
  position: Position;
  at: number;
  /** The primary's WAL position once the read models had applied `position`. */
  lsn?: string;
}

/**
 * Reads of the read models from a replica (DATABASE_READ_URL), with read-your-writes: a write's
 * answer carries its position; a read by the same token (on this instance), or one that sends
 * the position back in the header (on any instance), waits until the read models applied it
 * and a replica replayed that far, else reads the primary (docs/scaling.md, "Reads from
 * replicas").
 */
export class ReplicaReads {
  private readonly followed = new Map<string, Followed>();

  constructor(
    private readonly projections: ProjectionRunner,
    /** The primary's current WAL insert position. */
    private readonly primaryLsn: () => Promise<string>,
    /** Whether the primary answers: a read stops waiting for it once it is lost past its deadline. */
    private readonly primary: Reachability,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets every followed write (the store went back in time: their positions may be of a history it lost). */
  forget(): void {
    this.followed.clear();
  }

  wrote(token: string, position: Position): void {
    const before = this.followed.get(token);
    if (before && comparePositions(before.position, position) >= 0) return;
    this.followed.delete(token); // to the end of the insertion order, the oldest first out
    this.followed.set(token, { position, at: this.now() });
    if (this.followed.size > FOLLOWED_TOKENS) this.followed.delete(this.followed.keys().next().value!);
  }

  /**
   * The route of a read request: before the caller is known (its token being looked up) a
   * replica answers as it is; after, as the caller's writes require.
   */
  route(req: FastifyRequest, deadline: number): ReadRoute {
    return {
      replicaTarget: () => {
        const token = tokenOf(req);
        return token === undefined ? '' : this.target(token, sentPosition(req), deadline);
      },
      deadline,
    };
  }

  private async target(token: string, sentBack: Position | undefined, deadline: number): Promise<string | undefined> {
    let followed = this.followed.get(token);
    if (followed && this.now() - followed.at > FOLLOW_MS) {
      this.followed.delete(token);
      followed = undefined;
    }
    if (sentBack && (!followed || comparePositions(sentBack, followed.position) > 0))
      followed = { position: sentBack, at: this.now() };
    if (!followed) return '';
    if (followed.lsn) return followed.lsn;
    // read models that have not applied the write yet (their database lost, a failover under
    // way) have it nowhere: the primary could answer no more than a replica does
    const applied = this.projections.waitFor(followed.position, 5_000);
    const lost = this.primary.givenUp(deadline, applied).then(() => false);
    if (!(await Promise.race([applied, lost]))) return '';
    try {
      followed.lsn = await this.primary.bounded(this.primaryLsn(), deadline, "the primary's WAL position");
      return followed.lsn;
    } catch {
      // the primary is unreachable (a failover): the replica answers with what it has
      return '';
    }
  }
}

const sentPosition = (req: FastifyRequest): Position | undefined => {
  const header = req.headers[COMMIT_POSITION_HEADER];
  if (typeof header !== 'string' || !/^\d{1,20}\/\d{1,20}$/.test(header)) return undefined;
  return parsePosition(header);
};

/** The caller's token, when known: a request refused before authentication has none. */
const tokenOf = (req: FastifyRequest): string | undefined =>
  !req.principal
    ? undefined
    : req.principal.kind === 'supplier'
      ? req.principal.tokenId
      : req.principal.kind === 'operator'
        ? 'operator'
        : undefined;

const positions = new WeakMap<FastifyRequest, Position>();

/**
 * Runs each handler inside its route: a read's may go to the replica and has a deadline for
 * waiting on a lost primary, a write's notes its stored position for its answer's header and
 * its token's next reads. (Without a replica there is no route: every read goes to the
 * primary, and stops waiting once it has been lost for READ_WAIT_MS.)
 */
export const registerReplicaReads = (app: FastifyInstance, reads: ReplicaReads | undefined): void => {
  if (!reads) return;
  // registered before authentication: a read's token look-up goes to the replica too, so
  // reads go on answering while the primary is lost
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD')
      readRoutes.run(reads.route(req, Date.now() + READ_WAIT_MS), done);
    else done();
  });
  app.addHook('preHandler', (req, _reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD' || tokenOf(req) === undefined) return done();
    writeNotes.run(
      {
        note: (position) => {
          const before = positions.get(req);
          if (!before || comparePositions(position, before) > 0) positions.set(req, position);
        },
      },
      done,
    );
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    const position = positions.get(req);
    const token = position && tokenOf(req);
    if (position && token !== undefined && reply.statusCode < 400) {
      reply.header(COMMIT_POSITION_HEADER, formatPosition(position));
      reads.wrote(token, position);
    }
    done(null, payload);
  });
};
