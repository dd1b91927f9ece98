import type { WebhookEndpointEvent } from '../domain/webhook-endpoint.js';
import { projector } from './projector.js';

/** Webhook endpoints as suppliers list them (never their secrets). */
export const webhooksProjection = projector<WebhookEndpointEvent>({
  name: 'webhooks',
  version: 1,
  tables: ['webhook_endpoints'],
  ddl: (s) => `
    create table ${s}.webhook_endpoints (
      id text primary key,
      supplier_id text not null,
      url text not null,
      events text[] not null,
      description text not null,
      status text not null,
      created_at timestamptz not null,
      disabled_at timestamptz,
      deleted boolean not null
    );
    create index on ${s}.webhook_endpoints (supplier_id, id);`,
  handlers: {
    WebhookEndpointCreated: (db, e) =>
      db.insertInto('webhook_endpoints').values({
        id: e.data.endpointId,
        supplier_id: e.data.supplierId,
        url: e.data.url,
        events: e.data.events,
        description: e.data.description,
        status: 'active',
        created_at: e.data.at,
        disabled_at: null,
        deleted: false,
      }),
    WebhookEndpointUpdated: async (db, e) => {
      const columns = {
        ...(e.data.changes.url !== undefined && { url: e.data.changes.url }),
        ...(e.data.changes.events !== undefined && { events: e.data.changes.events }),
        ...(e.data.changes.description !== undefined && { description: e.data.changes.description }),
      };
      // a change of the rate limit alone touches no column of this table
      if (Object.keys(columns).length > 0)
        await db.updateTable('webhook_endpoints').set(columns).where('id', '=', e.data.endpointId).execute();
    },
    WebhookEndpointDisabled: (db, e) =>
      db
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_at: e.data.at })
        .where('id', '=', e.data.endpointId),
    WebhookEndpointEnabled: (db, e) =>
      db
        .updateTable('webhook_endpoints')
        .set({ status: 'active', disabled_at: null })
        .where('id', '=', e.data.endpointId),
    WebhookEndpointDeleted: (db, e) =>
      db.updateTable('webhook_endpoints').set({ deleted: true }).where('id', '=', e.data.endpointId),
  },
});
