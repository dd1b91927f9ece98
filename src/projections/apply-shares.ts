import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { comparePositions, type Position, type RecordedEvent, START, type Witness } from '../eventstore/port.js';
import { StatementRecorder } from '../db/recorder.js';
import { faultPoint } from '../faults.js';
import { beginAndClaim, writeCheckpoints } from './checkpoints.js';
import { applyEvent, Gathering, type Projector } from './projector.js';

/** One projector's part of a batch: the events it has handlers for, after its own position. */
export interface Share {
  projector: Projector;
  events: RecordedEvent[];
}

/**
 * Applies several projectors' shares of one batch and advances their checkpoints to the
 * batch's end, all in one transaction: a crash leaves every one of them either before the
 * batch or after it. The transaction opens with the claim, and the gathered rows, the
 * checkpoints and the commit go as one text, so a batch of gathered rows is two round trips. Under the projectors' locks each share is filtered again by the
 * checkpoint in the database, as another instance (or a rebuild's swap) may have gone
 * further meanwhile. Answers each projector's position afterwards. With `witnesses` the
 * claim first checks those events are still stored (`beginAndClaim`).
 */
export const applyShares = (
  db: Kysely<Database>,
  shares: Share[],
  end: Position,
  at: Date,
  /** The batch's gathered rows, for the caller to see what they were (a timer due, say). */
  gathering = new Gathering(),
  witnesses: Witness[] = [],
): Promise<Map<string, Position>> =>
  db.connection().execute(async (trx) => {
    try {
      const claimed = await beginAndClaim(
        trx,
        shares.map((s) => s.projector.name),
        witnesses,
      );
      const after = new Map<string, Position>();
      const advanced: { name: string; position: Position; version: number }[] = [];
      for (const { projector: p, events } of shares) {
        const current = claimed.get(p.name)?.position ?? START;
        if (comparePositions(current, end) >= 0) {
          after.set(p.name, current);
          continue;
        }
        for (const e of events) {
          if (comparePositions(e.position, current) <= 0) continue;
          const applying = applyEvent(p, trx, e, gathering);
          if (applying) await applying;
        }
        advanced.push({ name: p.name, position: end, version: p.version });
        after.set(p.name, end);
      }
      // the gathered rows travel with the checkpoints and the commit: one round trip
      const recorder = new StatementRecorder();
      await gathering.write(recorder.db);
      faultPoint('projector-batch');
      await writeCheckpoints(recorder.db, advanced, at);
      await recorder.commitOn(trx);
      return after;
    } catch (error) {
      // a lost connection has no transaction left to roll back; the pool drops it
      await sql`rollback`.execute(trx).catch(() => undefined);
      throw error;
    }
  });
