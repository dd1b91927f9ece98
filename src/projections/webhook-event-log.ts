import { sql } from 'kysely';
import type { RecordedEvent } from '../eventstore/port.js';
import { type Gathered, type Gatherer, projector } from './projector.js';
import { SOURCES } from '../domain/webhook-sources.js';

interface LogRow {
  event_id: string;
  commit_position: string;
  prepare_position: string;
  event_type: string;
  created_at: Date;
}

/** A batch's rows in one insert; positions travel as text (a KurrentDB position may pass 2^53). */
const logRows: Gatherer<LogRow> = {
  write: (db, rows) =>
    sql`insert into webhook_event_log (event_id, commit_position, prepare_position, event_type, created_at)
        select * from unnest(${rows.map((r) => r.event_id)}::text[], ${rows.map((r) => r.commit_position)}::numeric[],
          ${rows.map((r) => r.prepare_position)}::bigint[], ${rows.map((r) => r.event_type)}::text[],
          ${rows.map((r) => r.created_at)}::timestamptz[])
        on conflict (event_id) do nothing`.execute(db),
};

/**
 * Where in the global order each event a webhook can come from sits, by time: a recovery
 * (`POST /webhooks/{id}/recover`) finds the events since a moment here and reads them back
 * from the event store in order.
 */
export const webhookEventLogProjection = projector({
  name: 'webhook-event-log',
  version: 1,
  tables: ['webhook_event_log'],
  ddl: (s) => `
    create table ${s}.webhook_event_log (
      event_id text primary key,
      commit_position numeric(40, 0) not null,
      prepare_position bigint not null,
      event_type text not null, -- the webhook event type (order.paid, …)
      created_at timestamptz not null
    );
    create index on ${s}.webhook_event_log (created_at);`,
  handlers: Object.fromEntries(
    Object.keys(SOURCES).map((type) => [
      type,
      (_db, e: RecordedEvent): Gathered<LogRow> => ({
        gather: logRows,
        row: {
          event_id: e.id,
          commit_position: e.position.commit.toString(),
          prepare_position: e.position.prepare.toString(),
          event_type: SOURCES[type]!,
          created_at: e.createdAt,
        },
      }),
    ]),
  ),
});
