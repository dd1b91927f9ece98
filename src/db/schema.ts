import type { ColumnType, Generated } from 'kysely';

/** Kysely table types. Read-model tables are created by their projector (src/projections). */

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ProjectionCheckpointTable {
  name: string;
  commit_position: string;
  prepare_position: number;
  version: number;
  updated_at: Timestamp;
}

export interface TimerTable {
  kind: string;
  key: string;
  due_at: Timestamp;
  payload: Json<unknown>;
  attempts: Generated<number>;
  claimed_by: string | null;
  claimed_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
}

export interface RateLimitHitTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface IdempotencyKeyTable {
  scope: string;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_headers: Json<Record<string, string>> | null;
  response_body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SupplierTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface SupplierTokenTable {
  token_hash: string;
  token_id: string;
  supplier_id: string;
  environment: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface ProductTable {
  id: string;
  name: string;
  type: string;
  platform: string;
  region: string;
  status: string;
  form_fields: Json<unknown[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  projection_checkpoints: ProjectionCheckpointTable;
  timers: TimerTable;
  rate_limit_hits: RateLimitHitTable;
  idempotency_keys: IdempotencyKeyTable;
  suppliers: SupplierTable;
  supplier_tokens: SupplierTokenTable;
  products: ProductTable;
}
