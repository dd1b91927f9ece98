import { sql } from 'kysely';
import type { CommandDeps } from '../commands/context.js';
import type { RecordedEvent } from '../eventstore/port.js';
import { newId } from '../ids.js';
import { envelopeBody, type Outgoing } from '../outbound/webhook-events.js';

/** The live `listen` sessions of some suppliers, by supplier (suppliers without one are absent). */
export type Sessions = Map<string, { id: string; events: string[] }[]>;

/** An event copied to a session, waiting for the session's poll. */
export interface SessionCopy {
  id: string;
  session_id: string;
  event_id: string;
  event_type: string;
  body: string;
}

/** The sessions of these suppliers whose lease runs at `now`. */
export const liveSessions = async (db: CommandDeps['db'], supplierIds: string[], now: Date): Promise<Sessions> => {
  const rows =
    supplierIds.length === 0
      ? []
      : await db
          .selectFrom('webhook_listen_sessions')
          .select(['supplier_id', 'id', 'events'])
          .where('supplier_id', 'in', [...new Set(supplierIds)])
          .where('lease_until', '>', now)
          .orderBy('id')
          .execute();
  const bySupplier: Sessions = new Map();
  for (const r of rows) bySupplier.set(r.supplier_id, [...(bySupplier.get(r.supplier_id) ?? []), r]);
  return bySupplier;
};

/** One event's copies: one per live session of each supplier it is for that names its type. */
export const sessionCopies = (
  deps: CommandDeps,
  event: RecordedEvent,
  outgoing: Outgoing,
  sessions: Sessions,
): SessionCopy[] =>
  [...outgoing.bySupplier].flatMap(([supplierId, data]) => {
    const named = (sessions.get(supplierId) ?? []).filter(
      (s) => s.events.includes('*') || s.events.includes(outgoing.type),
    );
    if (named.length === 0) return [];
    const body = envelopeBody(event, outgoing.type, data, deps.env);
    return named.map((s) => ({ id: newId(), session_id: s.id, event_id: event.id, event_type: outgoing.type, body }));
  });

/** The copies in one statement; an event's copy for a session is made once, whoever fanned it out again. */
export const insertSessionCopies = async (deps: CommandDeps, copies: SessionCopy[], now: Date): Promise<void> => {
  if (copies.length === 0) return;
  await sql`
    insert into webhook_listen_events (id, session_id, event_id, event_type, body, created_at)
    select c.id, c.session_id, c.event_id, c.event_type, c.body, ${now}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(copies)}::jsonb)
      as c(id text, session_id text, event_id text, event_type text, body text)
    on conflict (session_id, event_id) do nothing`.execute(deps.db);
};
