import type { ColumnType, Generated } from 'kysely';
import type { LineReceipt } from '../domain/routing-receipt.js';

/** Kysely table types. Read-model tables are created by their projector (src/projections). */

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ProjectionCheckpointTable {
  name: string;
  commit_position: string;
  /** bigint, written and read as text (src/projections/checkpoints.ts): positions may pass 2^53 */
  prepare_position: ColumnType<number, string, string>;
  version: number;
  updated_at: Timestamp;
  /** When the rebuild that last set it began (migration 026); null if none did since. */
  rebuilt_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
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
  /** The scheduling event's trace context, with tracing on (its run is a step of that trace). */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RateLimitHitTable {
  bucket: string;
  window_start: number;
  hits: number;
  /** Budget every instance holds in the window, less what was given back (migration 025). */
  granted: ColumnType<number, number | undefined, number>;
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
  /** The operation's identity (an order's id), recorded before its first effect. */
  operation_id: string | null;
  /** The request currently running the operation. */
  owner: string | null;
  /** While in flight: the owner renews this; past it, a retry may take the key over. */
  lease_until: Timestamp | null;
}

export interface SupplierTable {
  id: string;
  name: string;
  created_at: Timestamp;
  /** Rate-limit overrides (requests per minute by class); null: the spec's numbers. */
  rate_limits: ColumnType<Record<string, number> | null, string | null, string | null>;
}

export interface SupplierTokenTable {
  token_hash: string;
  token_id: string;
  supplier_id: string;
  environment: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** A signed-in console session (src/http/console/session.ts); the cookie holds its id. */
export interface ConsoleSessionTable {
  id_hash: string;
  /** The supplier token it was opened with: revoking that token ends it. */
  token_id: string;
  supplier_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ProductTable {
  id: string;
  name: string;
  type: string;
  platform: string;
  region: string;
  status: string;
  form_fields: Json<unknown[]>;
  key_format: Json<unknown> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who holds each key value on the marketplace, by keyed fingerprint (write side, not a read model). */
export interface KeyFingerprintTable {
  fingerprint: string;
  item_id: string;
  offer_id: string;
  supplier_id: string;
  claimed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An item stored under review because another supplier's item holds the same key (read model). */
export interface KeyCollisionTable {
  item_id: string;
  offer_id: string;
  other_item_id: string;
  other_offer_id: string;
  other_supplier_id: string;
  detected_at: Timestamp;
}

export interface InventoryValueTable {
  item_id: string;
  offer_id: string;
  kind: string;
  sealed: string;
  created_at: Timestamp;
}

/** An upload's values, sealed together (commands/inventory-values.ts). */
export interface InventoryValueSetTable {
  family: string;
  part: number;
  offer_id: string;
  item_ids: string[];
  sealed: string;
  created_at: Timestamp;
  /** Looked at by the sweep of sets no upload recorded (commands/value-set-sweep.ts). */
  checked: Generated<boolean>;
  /** The database's time of the insert (real time, whatever the service's clock says). */
  stored_at: Generated<Timestamp>;
}

export interface OfferTable {
  id: string;
  supplier_id: string;
  product_id: string;
  external_ref: string;
  status: string;
  stock_mode: string;
  price_amount: number;
  delivery_sla_minutes: number;
  delivery_time: string;
  low_stock_threshold: number;
  declared_stock: number | null;
  stock_available: number;
  stock_reserved: number;
  stock_delivered: number;
  health_score: number;
  cooldown_until: Timestamp | null;
  fulfilment_base_url: string | null;
  last_healthcheck_at: Timestamp | null;
  last_healthcheck_ok: boolean | null;
  activated_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InventoryItemTable {
  id: string;
  offer_id: string;
  kind: string;
  status: string;
  file_name: string | null;
  content_type: string | null;
  order_id: string | null;
  /** The upload or import the item came in: its ids' family (src/ids.ts). */
  batch_id: string;
  /** What is shown of a text key (null: a file, or a key recorded before masks). */
  mask: string | null;
  /** The mask's last characters, in capitals: what "find by last 4" compares. */
  tail: string | null;
  /** A file's bytes (null: a text key, or a file recorded before sizes). */
  size: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderTable {
  id: string;
  status: string;
  buyer_country: string;
  supplier_ids: string[];
  expires_at: Timestamp;
  created_at: Timestamp;
  authorized_at: Timestamp | null;
  paid_at: Timestamp | null;
  completed_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface OrderItemTable {
  id: string;
  order_id: string;
  position: number;
  product_id: string;
  offer_id: string;
  supplier_id: string;
  external_ref: string;
  quantity: number;
  unit_price: number;
  gross: number;
  commission: number;
  net: number;
  status: string;
  source: string;
  reservation_id: string | null;
  inventory_item_ids: string[];
  topup: ColumnType<
    { operationId: string; accountLabel: string; receiptRef: string | null } | null,
    string | null,
    string | null
  >;
  delivered_at: Timestamp | null;
  disputed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface BalanceTable {
  supplier_id: string;
  pending: number;
  available: number;
  updated_at: Timestamp;
}

export interface BalanceEntryTable {
  id: string;
  seq: number;
  supplier_id: string;
  type: string;
  account: string;
  amount: number;
  order_id: string | null;
  order_item_id: string | null;
  payout_id: string | null;
  created_at: Timestamp;
  available_at: Timestamp | null;
}

export interface PayoutTable {
  id: string;
  seq: number;
  supplier_id: string;
  amount: number;
  method: string;
  status: string;
  trigger: string;
  destination_id: string | null;
  /** The destination's account, masked. */
  destination: string | null;
  failure_code: string | null;
  created_at: Timestamp;
  in_transit_at: Timestamp | null;
  paid_at: Timestamp | null;
  failed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface PayoutScheduleTable {
  supplier_id: string;
  interval: string;
  minimum_amount: number;
  method: string;
  updated_at: Timestamp;
}

export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  event_type: string;
  supplier_id: string;
  endpoint_id: string;
  body: string;
  test_fire: boolean;
  status: string;
  attempts: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Sent by POST /webhooks/{id}/recover, not by the event's own fan-out. */
  recovered: Generated<boolean>;
  recovery_id: string | null;
  /** When the next attempt is due (null once final); while claimed, the end of the claim's lease. */
  next_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The instance whose claim holds it, while it does. */
  claimed_by: string | null;
  /** Its event's trace context, with tracing on: every attempt, retries too, is a step of that trace. */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which instance sends to a rate-limited endpoint, until when (processes/webhook-pacing-leases.ts). */
export interface WebhookPacingLeaseTable {
  endpoint_id: string;
  instance: string;
  until: Timestamp;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  supplier_id: string;
  attempt: number;
  request_headers: Json<Record<string, string>>;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  succeeded: boolean;
  created_at: Timestamp;
}

export interface WebhookEndpointTable {
  id: string;
  supplier_id: string;
  url: string;
  events: string[];
  description: string;
  status: string;
  created_at: Timestamp;
  disabled_at: Timestamp | null;
  deleted: boolean;
}

export interface LedgerCosignatureTable {
  supplier_id: string;
  witness_key_id: string;
  witness_key: string;
  cosigned_at: Timestamp;
  tree_size: number;
  signed_at: Timestamp;
  checkpoint: Json<{ algorithm: 'ed25519'; key_id: string; signed: string; signature: string }>;
  signature: string;
}

/** One routed line of an order's routing receipt (projections/routing-receipts.ts). */
export interface RoutingLineTable {
  order_id: string;
  line_no: number;
  product_id: string;
  routed_at: Timestamp;
  /** routed_at, order id and line number: the one ordered, unique key its pages run on. */
  sort_key: string;
  line: Json<LineReceipt>;
}

export interface UpgradeTable {
  name: string;
  done_at: Timestamp;
  summary: Json<Record<string, unknown>>;
}

/** A live `listen` session (migration 026): the fan-out copies its supplier's events to it. */
export interface WebhookListenSessionTable {
  id: string;
  supplier_id: string;
  events: string[];
  lease_until: Timestamp;
  created_at: Timestamp;
}

/** An event fanned out to a session, kept until the session's poll acknowledges it. */
export interface WebhookListenEventTable {
  id: string;
  session_id: string;
  event_id: string;
  event_type: string;
  body: string;
  created_at: Timestamp;
}

export interface Database {
  webhook_listen_sessions: WebhookListenSessionTable;
  webhook_listen_events: WebhookListenEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_pacing_leases: WebhookPacingLeaseTable;
  webhook_attempts: WebhookAttemptTable;
  webhook_endpoint_failures: { endpoint_id: string; consecutive_failures: number };
  webhook_endpoints: WebhookEndpointTable;
  orders: OrderTable;
  order_items: OrderItemTable;
  balances: BalanceTable;
  balance_entries: BalanceEntryTable;
  payouts: PayoutTable;
  payout_schedules: PayoutScheduleTable;
  inventory_values: InventoryValueTable;
  inventory_value_sets: InventoryValueSetTable;
  key_fingerprints: KeyFingerprintTable;
  key_collisions: KeyCollisionTable;
  offers: OfferTable;
  inventory_items: InventoryItemTable;
  projection_checkpoints: ProjectionCheckpointTable;
  timers: TimerTable;
  rate_limit_hits: RateLimitHitTable;
  idempotency_keys: IdempotencyKeyTable;
  suppliers: SupplierTable;
  supplier_tokens: SupplierTokenTable;
  console_sessions: ConsoleSessionTable;
  products: ProductTable;
  upgrades: UpgradeTable;
  ledger_cosignatures: LedgerCosignatureTable;
  routing_lines: RoutingLineTable;
}
