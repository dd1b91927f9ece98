import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which server a request's reads of the read models go to, and until when they wait for a
 * lost primary, set for the request's handler (src/http/replica-reads.ts) and read where a
 * pooled connection is taken (src/db/gated.ts). Outside a request (commands, process
 * managers, projections) and without a replica there is none, and every read goes to the
 * primary.
 */
export interface ReadRoute {
  /**
   * Nothing: read the primary. Else the replica may answer once it has replayed this WAL
   * position ('' when it need not wait for any).
   */
  replicaTarget(): Promise<string | undefined> | string | undefined;
  /**
   * Epoch ms: once the primary is lost past it (src/db/reachability.ts), the request's reads
   * stop waiting for what only the primary gives, and answer from a replica or with 503.
   */
  deadline: number;
}

export const readRoutes = new AsyncLocalStorage<ReadRoute>();

/**
 * A write request's last stored position, noted where its commands hand it to the read
 * fence (src/projections/read-fence.ts), so that its answer can carry it.
 */
export interface WriteNote {
  note(position: { commit: bigint; prepare: bigint }): void;
}

export const writeNotes = new AsyncLocalStorage<WriteNote>();
