import type { ProductEvent, ProductFields } from '../domain/product.js';
import { projector } from './projector.js';

const columns = (f: Partial<ProductFields>) => ({
  ...(f.name !== undefined && { name: f.name }),
  ...(f.type !== undefined && { type: f.type }),
  ...(f.platform !== undefined && { platform: f.platform }),
  ...(f.region !== undefined && { region: f.region }),
  ...(f.status !== undefined && { status: f.status }),
  ...(f.formFields !== undefined && { form_fields: JSON.stringify(f.formFields) }),
  ...(f.keyFormat !== undefined && { key_format: f.keyFormat && JSON.stringify(f.keyFormat) }),
});

export const productsProjection = projector<ProductEvent>({
  name: 'products',
  version: 2,
  tables: ['products'],
  ddl: (s) => `
    create table ${s}.products (
      id text primary key,
      name text not null,
      type text not null,
      platform text not null,
      region text not null,
      status text not null,
      form_fields jsonb not null,
      key_format jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${s}.products (type, id);`,
  handlers: {
    ProductCreated: (db, e) =>
      db.insertInto('products').values({
        id: e.data.productId,
        name: e.data.name,
        type: e.data.type,
        platform: e.data.platform,
        region: e.data.region,
        status: e.data.status,
        form_fields: JSON.stringify(e.data.formFields),
        key_format: e.data.keyFormat && JSON.stringify(e.data.keyFormat),
        created_at: e.data.at,
        updated_at: e.data.at,
      }),
    ProductUpdated: (db, e) =>
      db
        .updateTable('products')
        .set({ ...columns(e.data.changes), updated_at: e.data.at })
        .where('id', '=', e.data.productId),
  },
});
