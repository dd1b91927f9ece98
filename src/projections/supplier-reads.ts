import type { Kysely } from 'kysely';
import type { Environment } from '../config.js';
import type { Database } from '../db/schema.js';

/** The supplier a live token of this environment belongs to, by the token's hash; undefined for an unknown or revoked one. */
export const supplierOfTokenHash = (db: Kysely<Database>, hash: string, env: Environment) =>
  db
    .selectFrom('supplier_tokens as t')
    .innerJoin('suppliers as s', 's.id', 't.supplier_id')
    .select(['t.supplier_id', 't.token_id', 's.name', 's.rate_limits'])
    .where('t.token_hash', '=', hash)
    .where('t.revoked_at', 'is', null)
    .where('t.environment', '=', env)
    .executeTakeFirst();
