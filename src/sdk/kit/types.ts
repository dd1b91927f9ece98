import type { IncomingHttpHeaders } from 'node:http';
import type { VerifyFailure } from './verify.js';

/** The spec's inventory item kinds, as `GET /orders/{order_id}/items` hands them over. */
export type KitItem =
  | { kind: 'text'; value: string }
  | {
      kind: 'file';
      file_name: string;
      content_type: 'application/pdf' | 'image/png' | 'image/jpeg';
      content_base64: string;
    };

/** A stock entry: a bare string is a text key. */
export type StockEntry = string | KitItem;

/** Keys per `external_ref`; `'*'` serves any external_ref without its own entry. */
export type StockMap = Record<string, StockEntry[]>;

/** One account a top-up can go to, keyed by the form field `user_id`. */
export interface TopupAccount {
  /** Shown to the buyer after a valid validate. */
  label: string;
  /** `false` answers `account_ineligible`. Default true. */
  eligible?: boolean;
  /** When set, `form_fields.server` must be one of these, else `invalid_server`. */
  servers?: string[];
  /** A quantity above this answers `limit_exceeded`. */
  maxQuantity?: number;
  /** Execute ends `failed` with this code and message; no top-up is performed. */
  failExecute?: { code: string; message: string };
}

export interface SupplierKitOptions {
  /** Fulfilment secrets (`svcsec_…`) accepted; several during a rotation. */
  secrets: string[];
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** When set, `X-SVC-Offer-Id` must equal it (403 `unknown_offer` otherwise). */
  offerId?: string;
  /**
   * Keys in memory (`StockMap`), or the path of a JSON stock file `{"stock": StockMap}` the kit
   * keeps its whole state in (rewritten after every change). Omitted: unlimited generated text keys.
   */
  stock?: StockMap | string;
  /** Top-up accounts by `user_id`, merged over the built-in sandbox accounts. */
  topupAccounts?: Record<string, TopupAccount>;
  /** Built-in sandbox accounts 100001, 777777, 888888 (999999 is unknown). Default true. */
  sandboxAccounts?: boolean;
  /** `POST /reservations` answers 409 `region_blocked` for these buyer countries. */
  blockedCountries?: string[];
  /** Unix ms: signature tolerance, reservation expiry, allocation delay, async top-up settling. */
  now?: () => number;
  /** Items become ready this long (kit clock) after `POST /orders`. Default 0: ready at the first poll. */
  allocationDelayMs?: number;
  /** Items become ready only when `markReady(orderId)` is called. */
  manualAllocation?: boolean;
  /** `false` answers `DELETE /orders/{id}/items` with 405 (unsupported). Default true. */
  supportsItemReturn?: boolean;
  /** Signature timestamp tolerance, default 300000 ms. */
  toleranceMs?: number;
  /** How many requests `received` keeps (oldest dropped). Default 10000. */
  maxReceived?: number;
  /** Called with each request once it is answered (a log line, say). */
  onRequest?: (request: KitRequest) => void;
}

export const KIT_ROUTES = [
  'GET /healthcheck',
  'POST /reservations',
  'DELETE /reservations/:id',
  'POST /orders',
  'GET /orders/:id/items',
  'DELETE /orders/:id/items',
  'POST /topup/validate',
  'POST /topup/execute',
  'GET /topup/operations/:id',
] as const;

export type KitRoute = (typeof KIT_ROUTES)[number];

export type ValidateCode = 'invalid_user_id' | 'invalid_server' | 'account_ineligible' | 'limit_exceeded' | 'other';

/** Settings every fault accepts. */
export interface FaultCommon {
  /** Applies to the next N calls of the route, then clears. Default: until cleared. */
  times?: number;
  /** Waits this long (real ms) before the fault's answer. */
  delayMs?: number;
}

/**
 * What a route does instead of its normal answer. Faults apply after the signature check
 * (a rejected call does not consume one). `process: true` on `status`, `hang` and `malformed`
 * runs the real handler first: its side effects happen and its answer is lost.
 */
export type KitFault = FaultCommon &
  /** Any route: answer normally, `ms` real milliseconds late. */
  (
    | { kind: 'delay'; ms: number }
    /** Any route: answer `status` with `body` (default `{code: 'fault_injected'}`). */
    | { kind: 'status'; status: number; body?: unknown; process?: boolean }
    /** Any route: never answer (the connection stays open until the kit closes). */
    | { kind: 'hang'; process?: boolean }
    /** Any route: a body that is not JSON, with `status` (default 200). */
    | { kind: 'malformed'; status?: number; process?: boolean }
    /** `GET /orders/:id/items`: a ready answer with `quantity + delta` items (delta default 1). */
    | { kind: 'wrong_count'; delta?: number }
    /** `GET /orders/:id/items`: answer pending even when the items are ready. */
    | { kind: 'stay_pending' }
    /** `POST /orders`: take the order but answer 202 pending_stock. */
    | { kind: 'pending_stock' }
    /** `POST /orders`: the reservation expires now; 410 reservation_expired. */
    | { kind: 'reservation_expired' }
    /** `POST /topup/validate`: valid false with this code. */
    | { kind: 'validate_invalid'; code: ValidateCode; message?: string }
    /** `POST /topup/execute`: definitive failure (no top-up), answered with `status` (default 201). */
    | { kind: 'topup_failed'; code?: string; message?: string; status?: 200 | 201 }
    /**
     * `POST /topup/execute`: 202 processing. The operation settles `settleAfterMs` (kit clock)
     * later with `outcome` (default completed), or when `settleOperation` is called.
     */
    | { kind: 'topup_processing'; settleAfterMs?: number; outcome?: TopupOutcome }
  );

export type TopupOutcome = 'completed' | { code: string; message: string };

export interface KitReservation {
  reservation_id: string;
  offer_id: string;
  external_ref: string;
  product_id: string;
  quantity: number;
  buyer_country: string;
  expires_at: string;
  expires_at_ms: number;
  status: 'held' | 'ordered' | 'released' | 'expired';
  /** The stock pool the keys came from (`null`: generated keys). */
  pool: string | null;
  items: KitItem[];
  order_id?: string;
  response: { reservation_id: string; expires_at: string };
}

export interface KitOrder {
  order_id: string;
  reservation_id: string;
  offer_id: string;
  external_ref: string;
  quantity: number;
  unit_price: unknown;
  buyer_country: string;
  accepted_at: number;
  /** When the items become ready on their own (kit clock); null: only `markReady`. */
  ready_at: number | null;
  status: 'allocating' | 'ready' | 'returned';
  pool: string | null;
  items: KitItem[];
  polls: number;
  returned?: number;
  response_status: 201 | 202;
  response: { order_id: string; status: 'accepted' | 'pending_stock' };
}

export interface KitOperation {
  operation_id: string;
  order_id: string;
  offer_id: string;
  external_ref: string;
  quantity: number;
  form_fields: Record<string, string>;
  status: 'processing' | 'completed' | 'failed';
  receipt_ref?: string;
  code?: string;
  message?: string;
  /** Real top-ups carried out for this operation: 0 or 1. */
  executions: number;
  /** `POST /topup/execute` calls received for this operation (first call and replays). */
  calls: number;
  /** Async operations: when they settle on their own (kit clock); null: only `settleOperation`. */
  settle_at?: number | null;
  settle_outcome?: TopupOutcome;
  /** The first answer's status and the body every replay repeats. */
  result_status: 200 | 201 | 202;
  result: Record<string, unknown>;
}

/** Everything the kit holds; plain JSON, what a stock file stores. */
export interface KitState {
  /** Keys not held or sold, per pool. */
  stock: Record<string, KitItem[]>;
  /** True when no stock was configured: keys are generated on demand. */
  unlimited: boolean;
  reservations: Record<string, KitReservation>;
  orders: Record<string, KitOrder>;
  operations: Record<string, KitOperation>;
  /** Order ids returned with `DELETE /orders/{id}/items` before the kit ever saw them. */
  cancelled_orders: string[];
  /** Real top-ups carried out, all operations together. */
  topups_performed: number;
}

export interface KitRequest {
  seq: number;
  /** Kit clock, Unix ms. */
  at: number;
  method: string;
  /** Path without the query string. */
  path: string;
  route: KitRoute | null;
  headers: IncomingHttpHeaders;
  offerId: string | undefined;
  userAgent: string | undefined;
  rawBody: string;
  /** Parsed JSON body, undefined when empty or not JSON. */
  body: unknown;
  signature: 'ok' | 'skipped' | VerifyFailure;
  /** The status answered; undefined while the answer is pending (delay, hang). */
  status?: number;
}

export interface KitFaults {
  /** Replaces the route's fault. Throws when the kind does not fit the route. */
  set(route: KitRoute, fault: KitFault): void;
  /** Clears one route's fault, or all. */
  clear(route?: KitRoute): void;
  /** The route's active fault with its remaining count, if any. */
  get(route: KitRoute): (KitFault & { remaining: number | null }) | undefined;
}

export interface SupplierKit {
  url: string;
  port: number;
  state: KitState;
  faults: KitFaults;
  received: KitRequest[];
  /** Items of this order become ready now (any allocation mode). */
  markReady(orderId: string): void;
  /** Settles a processing top-up (default: completed, which performs the top-up). */
  settleOperation(operationId: string, outcome?: TopupOutcome): void;
  /** Replaces the accepted secrets (rotation). */
  setSecrets(secrets: string[]): void;
  close(): Promise<void>;
}
