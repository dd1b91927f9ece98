import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Each endpoint's consecutive failures. The counters are written by commands and the sender,
 * never by a projection: they never trail the events, so read them without waiting for the
 * read models.
 */
export const endpointFailures = async (db: Kysely<Database>, endpointIds: readonly string[]) => {
  if (endpointIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('webhook_endpoint_failures')
    .selectAll()
    .where('endpoint_id', 'in', [...endpointIds])
    .execute();
  return new Map(rows.map((r) => [r.endpoint_id, r.consecutive_failures]));
};

/** A page of the supplier's endpoints (deleted ones left out) by id, one row past `limit` when there are more. */
export const listSupplierEndpoints = (
  db: Kysely<Database>,
  supplierId: string,
  filter: { after?: string; limit: number },
) => {
  let q = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('supplier_id', '=', supplierId)
    .where('deleted', '=', false)
    .orderBy('id')
    .limit(filter.limit + 1);
  if (filter.after) q = q.where('id', '>', filter.after);
  return q.execute();
};

const attempts = (db: Kysely<Database>) =>
  db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id');

export interface AttemptFilter {
  webhookId?: string;
  eventType?: string;
  eventId?: string;
  succeeded?: boolean;
  from?: Date;
  to?: Date;
  before?: string;
  limit: number;
}

/** A page of the supplier's delivery log, one row per attempt, newest first, one past `limit` when there are more. */
export const listDeliveryAttempts = (db: Kysely<Database>, supplierId: string, filter: AttemptFilter) => {
  let q = attempts(db)
    .select([
      'a.id',
      'a.delivery_id',
      'd.endpoint_id',
      'e.url',
      'd.event_id',
      'd.event_type',
      'a.attempt',
      'd.test_fire',
      'd.recovered',
      'a.succeeded',
      'a.response_status',
      'a.duration_ms',
      'a.error',
      'a.created_at',
    ])
    .where('a.supplier_id', '=', supplierId)
    .orderBy('a.id', 'desc')
    .limit(filter.limit + 1);
  if (filter.webhookId) q = q.where('d.endpoint_id', '=', filter.webhookId);
  if (filter.eventType) q = q.where('d.event_type', '=', filter.eventType);
  if (filter.eventId) q = q.where('d.event_id', '=', filter.eventId);
  if (filter.succeeded !== undefined) q = q.where('a.succeeded', '=', filter.succeeded);
  if (filter.from) q = q.where('a.created_at', '>=', filter.from);
  if (filter.to) q = q.where('a.created_at', '<', filter.to);
  if (filter.before) q = q.where('a.id', '<', filter.before);
  return q.execute();
};

/** One attempt of the supplier's with its delivery: by attempt id, or by delivery id (its latest attempt). */
export const deliveryAttempt = (db: Kysely<Database>, supplierId: string, id: string) =>
  attempts(db)
    .selectAll('a')
    .select([
      'd.endpoint_id',
      'e.url',
      'd.event_id',
      'd.event_type',
      'd.test_fire',
      'd.recovered',
      'd.body',
      'd.created_at as delivery_created_at',
      'd.attempts',
    ])
    .where('a.supplier_id', '=', supplierId)
    .where((eb) => eb.or([eb('a.id', '=', id), eb('a.delivery_id', '=', id)]))
    .orderBy('a.attempt', 'desc')
    .limit(1)
    .executeTakeFirst();
