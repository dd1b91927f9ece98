import type pg from 'pg';
import { type FaultPoint, setFaultHook } from '../faults.js';

/**
 * A crash, in process. A SIGKILL ends a process between two instructions: nothing after
 * that point runs, no `finally` reaches the database, open transactions roll back when
 * Postgres sees the connections drop, advisory locks go with them, and timer leases stay
 * held until they run out. The simulator reproduces exactly that, inside one Node process:
 *
 * 1. at the armed fault point the hook ends the instance's pool and destroys every socket
 *    of it synchronously, before any further statement can be sent: Postgres sees the
 *    connections drop (rollback, locks released) like after a kill;
 * 2. then it throws `SimulatedCrash`. Whatever code catches it (a timer's retry
 *    bookkeeping, the HTTP error handler, the idempotency hook) can no longer reach the
 *    database, so nothing the dead instance "does" afterwards leaves a trace; its
 *    in-flight calls to suppliers may still arrive there, as a real process's sent bytes would;
 * 3. the simulator abandons the instance (its app, subscriptions, timers) without its
 *    graceful stop, and starts a fresh one on the same database.
 *
 * What differs from a real kill: the abandoned instance's JavaScript may still run to the
 * end of its current await chain (harmless, every write fails), and an answer the HTTP
 * layer produced for a crashed request is ignored by the simulator as if lost.
 */
export class SimulatedCrash extends Error {
  constructor(readonly point: FaultPoint) {
    super(`simulated crash at ${point}`);
    this.name = 'SimulatedCrash';
  }
}

export interface CrashPlan {
  point: FaultPoint;
  /** Dies at this hit of the point (1 = the first one after arming). */
  hit: number;
}

/** Cuts a pool off its database at once, as a killed process would. */
export const killPool = (pool: pg.Pool): void => {
  const p = pool as unknown as { _clients: pg.PoolClient[]; ending: boolean };
  if (!p.ending) void pool.end().catch(() => undefined);
  for (const client of [...p._clients]) {
    client.on('error', () => undefined);
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
};

/**
 * Arms one crash: at the plan's hit of its point, `onCrash` runs (it kills the pool) and the
 * point throws. Returns a disarm function. Only one instance lives at a time in a
 * simulation, so the module-wide hook always belongs to the current one.
 */
export const armCrash = (plan: CrashPlan, onCrash: (point: FaultPoint) => void): (() => void) => {
  let hits = 0;
  let fired = false;
  setFaultHook((point) => {
    if (fired) {
      // the dead instance keeps running its current await chain: stop it at every point
      throw new SimulatedCrash(point);
    }
    if (point !== plan.point) return;
    hits++;
    if (hits < plan.hit) return;
    fired = true;
    onCrash(point);
    throw new SimulatedCrash(point);
  });
  return () => setFaultHook(undefined);
};
