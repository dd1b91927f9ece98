import { sql } from 'kysely';
import type { RecordedEvent } from '../eventstore/port.js';
import { projector } from './projector.js';
import { SOURCES } from '../domain/webhook-sources.js';

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
      (db, e: RecordedEvent) =>
        sql`insert into webhook_event_log (event_id, commit_position, prepare_position, event_type, created_at)
            values (${e.id}, ${e.position.commit.toString()}::numeric, ${e.position.prepare.toString()}::bigint, ${SOURCES[type]!}, ${e.createdAt})
            on conflict (event_id) do nothing`.execute(db),
    ]),
  ),
});
