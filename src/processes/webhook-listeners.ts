import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RecordedEvent } from '../eventstore/port.js';

/** The suppliers an event's data names (order events name theirs, most others their one); undefined when only a read tells. */
export const suppliersNamedBy = (event: RecordedEvent): string[] | undefined => {
  const d = event.data as { supplierIds?: unknown; supplierId?: unknown };
  if (Array.isArray(d.supplierIds)) return d.supplierIds as string[];
  if (typeof d.supplierId === 'string') return [d.supplierId];
  return undefined;
};

/**
 * The suppliers that have, or once had, a webhook endpoint or a `listen` session, as far as
 * this process has read: the endpoints' and sessions' tables once, then every
 * WebhookEndpointCreated and WebhookListenSessionOpened the projection feed
 * reads (it hands each batch to observers before any projector, from the lowest position of
 * them all, so an endpoint is known before any later event is applied). A superset, never
 * forgetting a supplier: an event that names only suppliers outside it cannot have a
 * delivery, so the webhook process schedules no fan-out for it (most orders come from
 * suppliers without endpoints, and each fan-out is a timer, an event read and an endpoint
 * read).
 */
export class WebhookListeners {
  private readonly suppliers = new Set<string>();
  private loaded = false;

  observe(events: RecordedEvent[]): void {
    for (const e of events)
      if (e.type === 'WebhookEndpointCreated' || e.type === 'WebhookListenSessionOpened')
        this.suppliers.add((e.data as { supplierId: string }).supplierId);
  }

  /** May any of these suppliers have an endpoint? Reads the table the first time (in the caller's transaction). */
  async mayListen(db: Kysely<Database>, supplierIds: string[]): Promise<boolean> {
    if (!this.loaded) {
      const { rows } = await sql<{ supplier_id: string }>`
        select supplier_id from webhook_endpoints union select supplier_id from webhook_listen_sessions`.execute(db);
      for (const r of rows) this.suppliers.add(r.supplier_id);
      this.loaded = true;
    }
    return supplierIds.some((s) => this.suppliers.has(s));
  }
}
