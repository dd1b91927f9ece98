import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import {
  appendBatchFunctionDdl,
  appendByLastEventDdl,
  appendGroupsFunctionDdl,
  appendFunctionDdl,
  eventStoreDdl,
} from './event-store-schema.js';

/**
 * Schema of the write side and the runtime. Read-model tables are not here: each projector
 * creates its own and can rebuild them from the events at any time.
 */
const ddl = (text: string): Migration => ({ up: async (db) => void (await sql.raw(text).execute(db)) });

export const migrations: Record<string, Migration> = {
  '001_event_store': ddl(eventStoreDdl),
  '002_projection_checkpoints': ddl(`
    create table projection_checkpoints (
      name text primary key,
      commit_position text not null,
      prepare_position bigint not null,
      version integer not null,
      updated_at timestamptz not null
    );`),
  '003_timers': ddl(`
    create table timers (
      kind text not null,
      key text not null,
      due_at timestamptz not null,
      payload jsonb not null,
      attempts integer not null default 0,
      claimed_by text,
      claimed_until timestamptz,
      last_error text,
      created_at timestamptz not null,
      primary key (kind, key)
    );
    create index timers_due on timers (due_at);`),
  // Unlogged: a crash may forget the last seconds of counting, which a rate limiter can
  // afford, and every request saves a WAL flush.
  '004_rate_limits': ddl(`
    create unlogged table rate_limit_hits (
      bucket text not null,
      window_start bigint not null,
      hits integer not null,
      primary key (bucket, window_start)
    );`),
  '005_idempotency_keys': ddl(`
    create table idempotency_keys (
      scope text not null,
      key text not null,
      request_hash text not null,
      state text not null,
      response_status integer,
      response_headers jsonb,
      response_body text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (scope, key)
    );
    create index idempotency_keys_expiry on idempotency_keys (expires_at);`),
  // Key values and files are not events: they are secrets, sealed with SVC_SECRET_KEY,
  // kept once here and referenced from the inventory events by item id.
  '006_inventory_values': ddl(`
    create table inventory_values (
      item_id text primary key,
      offer_id text not null,
      kind text not null,
      sealed text not null,
      created_at timestamptz not null
    );
    create index inventory_values_offer on inventory_values (offer_id);`),
  // appends are announced by the adapter after commit (see appendFunctionDdl)
  '007_append_without_notify': ddl(appendFunctionDdl(false)),
  // The webhook delivery log is operational data, not business facts: a row per delivery
  // (an event for one endpoint, its exact signed body) and per attempt, purged after 30
  // days. The consecutive-failure counter lives beside it, updated with each attempt.
  '008_webhook_deliveries': ddl(`
    create table webhook_deliveries (
      id text primary key,
      event_id text not null,
      event_type text not null,
      supplier_id text not null,
      endpoint_id text not null,
      body text not null,
      test_fire boolean not null,
      status text not null,
      attempts integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index webhook_deliveries_supplier on webhook_deliveries (supplier_id, id);
    create unique index webhook_deliveries_once on webhook_deliveries (event_id, endpoint_id) where not test_fire;
    create table webhook_attempts (
      id text primary key,
      delivery_id text not null,
      supplier_id text not null,
      attempt integer not null,
      request_headers jsonb not null,
      request_body text not null,
      response_status integer,
      response_body text,
      duration_ms integer not null,
      error text,
      succeeded boolean not null,
      created_at timestamptz not null
    );
    create index webhook_attempts_delivery on webhook_attempts (delivery_id, attempt);
    create table webhook_endpoint_failures (
      endpoint_id text primary key,
      consecutive_failures integer not null
    );`),
  // An in-flight Idempotency-Key holds a lease its request renews: once the owner is gone
  // (a crash) a retry takes the key over and re-runs the operation under the identity
  // recorded here before any effect. Old rows have no lease: they can be taken over at once.
  '009_idempotency_leases': ddl(`
    alter table idempotency_keys add column operation_id text;
    alter table idempotency_keys add column owner text;
    alter table idempotency_keys add column lease_until timestamptz;`),
  // the operator test clock's offset (SVC_TEST_CLOCK=1), so a restart does not move time back
  '010_test_clock_offset': ddl(`
    create table test_clock_offset (
      id boolean primary key default true check (id),
      offset_ms bigint not null
    );`),
  // a recovery re-sends events an endpoint already had a delivery for: those are new
  // deliveries, so the one-delivery-per-event rule holds for the regular ones only
  '011_webhook_recovery': ddl(`
    alter table webhook_deliveries add column recovered boolean not null default false;
    alter table webhook_deliveries add column recovery_id text;
    drop index webhook_deliveries_once;
    create unique index webhook_deliveries_once on webhook_deliveries (event_id, endpoint_id) where not test_fire and not recovered;`),
  // every event records the version of its data's shape, for upcasting on read (see
  // eventstore/upcast.ts); rows written before read as 1. A constant default adds the
  // column without rewriting the table.
  '012_event_schema_version': ddl(`
    alter table es_events add column schema_version smallint not null default 1 check (schema_version >= 1);
    ${appendFunctionDdl(false, true)}`),
  // one statement takes the locks of several projectors (in name order, so two instances
  // never wait on each other crosswise) and then reads their checkpoints: a volatile
  // function reads with a snapshot taken after the locks, so it sees the last holder's commit
  '013_projection_claim': ddl(`
    create function projection_claim(names text[])
    returns table (name text, commit_position text, prepare_position text, version integer)
    language plpgsql volatile as $$
    declare n text;
    begin
      foreach n in array (select array_agg(x order by x) from unnest(names) as x) loop
        perform pg_advisory_xact_lock(hashtext('projection:' || n));
      end loop;
      return query select c.name, c.commit_position, c.prepare_position::text, c.version
        from projection_checkpoints c where c.name = any(names);
    end $$;`),
  // an append that creates its stream writes the stream's row at its final revision at
  // once: two row writes for a new stream instead of three (an insert, then an update)
  '014_append_creates_at_revision': ddl(appendFunctionDdl(false, true, true)),
  // a delivery carries its own next attempt: the sender claims due ones in batches from
  // this table (a claim moves next_attempt_at to the end of its lease, claimed_by names the
  // instance) instead of a timer row per attempt. Attempts waiting in the timer table move over.
  '015_webhook_delivery_due': ddl(`
    alter table webhook_deliveries add column next_attempt_at timestamptz;
    alter table webhook_deliveries add column claimed_by text;
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, id) where next_attempt_at is not null;
    update webhook_deliveries d set next_attempt_at = t.due_at
      from timers t
      where t.kind = 'webhook.deliver' and t.payload->>'deliveryId' = d.id and d.status = 'pending';
    delete from timers where kind = 'webhook.deliver';`),
  // an append reads its stream's revision from the stream's last event instead of a row of
  // its own: one write per append, as a plain INSERT (see appendByLastEventDdl)
  '016_append_without_stream_rows': ddl(`
    ${appendByLastEventDdl()}
    drop table es_streams;`),
  // an append that does not name its revision takes its transaction id after the stream's
  // lock, so appenders queued on one stream no longer refuse each other as older
  '017_append_xid_after_lock': ddl(appendByLastEventDdl(true)),
  // one instance at a time sends to an endpoint with a rate_limit, so the limit holds
  // across instances (processes/webhook-pacing-leases.ts)
  '018_webhook_pacing_leases': ddl(`
    create table webhook_pacing_leases (
      endpoint_id text primary key,
      instance text not null,
      until timestamptz not null
    );`),
  // appends that queue up behind those in flight go to the database together, in one
  // transaction (src/eventstore/postgres-append-batch.ts)
  '019_append_batch': ddl(appendBatchFunctionDdl),
  // the batches carry groups: appends to several streams written all or none
  // (EventStore.appendMany, src/eventstore/postgres-append-batch.ts)
  '020_append_groups': ddl(appendGroupsFunctionDdl),
  // an upload's values are sealed and kept together, one row per upload, found from any of
  // its item ids by their common part (commands/inventory-values.ts); inventory_values keeps
  // declared deliveries and the values stored before
  '021_inventory_value_sets': ddl(`
    create table inventory_value_sets (
      family text not null,
      part integer not null,
      offer_id text not null,
      item_ids text[] not null,
      sealed text not null,
      created_at timestamptz not null,
      primary key (family, part)
    );
    create index inventory_value_sets_offer on inventory_value_sets (offer_id);`),
  // a set no upload's event recorded (its process killed between the two) is found and
  // deleted by an hourly sweep (commands/value-set-sweep.ts), which looks at each set once:
  // those not yet looked at are few, and their index small. stored_at is the database's
  // own time of the insert: the service's clock can be moved (the operator test clock)
  '022_value_set_sweep': ddl(`
    alter table inventory_value_sets add column checked boolean not null default false;
    alter table inventory_value_sets add column stored_at timestamptz not null default now();
    create index inventory_value_sets_unchecked on inventory_value_sets (created_at) where not checked;`),
  // the console's sessions: the sealed cookie names one of these rows, and signing out
  // deletes it, so a copy of the cookie kept past sign-out opens nothing on any instance.
  // Keyed by the hash of the session id (as tokens are); expires_at for the hourly purge
  '024_console_sessions': ddl(`
    create table console_sessions (
      id_hash text primary key,
      token_id text not null,
      supplier_id text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    );
    create index console_sessions_expiry on console_sessions (expires_at);`),
  // budget for rate limits handed out so that every instance together never admits more
  // than a bucket's limit (src/http/rate-limiter.ts). The claim locks, one bucket after
  // another in (bucket, window) order, its previous window's row before its own: the flush
  // locks in the same order, so neither deadlocks the other. The budget is the limit less the
  // previous window's weighed total, computed as the limiter does (floor(count * (60 -
  // elapsed) / 60) in double precision, 60 s the window): the same number on every instance.
  // It only grows as the window goes on, so budget claimed at one moment is within the
  // limit at any later moment of the window. A claim takes at most an eighth of what is left.
  '025_rate_limit_budget': ddl(`
    alter table rate_limit_hits add column granted integer not null default 0;
    create function rate_limit_claim(
      p_bucket text[], p_window bigint[], p_elapsed double precision[],
      p_limit integer[], p_want integer[], p_give_back integer[]
    ) returns table (claimed_bucket text, claimed_window bigint, given integer, granted integer, previous integer)
    language plpgsql as $$
    #variable_conflict use_column
    declare
      i integer;
      prev integer;
      held integer;
      room integer;
      give integer;
    begin
      for i in select o from unnest(p_bucket, p_window) with ordinality as u(b, w, o) order by b, w loop
        if p_give_back[i] > 0 then
          update rate_limit_hits r set granted = greatest(r.granted - p_give_back[i], 0)
          where r.bucket = p_bucket[i] and r.window_start = p_window[i] - 60;
        end if;
        select r.granted into prev from rate_limit_hits r
        where r.bucket = p_bucket[i] and r.window_start = p_window[i] - 60;
        prev := coalesce(prev, 0);
        insert into rate_limit_hits (bucket, window_start, hits, granted)
        values (p_bucket[i], p_window[i], 0, 0) on conflict do nothing;
        select r.granted into held from rate_limit_hits r
        where r.bucket = p_bucket[i] and r.window_start = p_window[i] for update;
        room := p_limit[i]
          - floor(prev::double precision * (60 - p_elapsed[i]) / 60)::integer - held;
        give := case when room <= 0 then 0 else least(p_want[i], ceil(room / 8.0)::integer) end;
        if give > 0 then
          update rate_limit_hits r set granted = r.granted + give
          where r.bucket = p_bucket[i] and r.window_start = p_window[i];
        end if;
        claimed_bucket := p_bucket[i];
        claimed_window := p_window[i];
        given := give;
        granted := held + give;
        previous := prev;
        return next;
      end loop;
    end $$;`),
  // `listen`'s forwarding sessions, operational data as the delivery log is: a session lives
  // while its lease (renewed by each poll) runs, and the events fanned out to it wait here
  // until its poll acknowledges them; both go when the session ends
  '026_webhook_listen_sessions': ddl(`
    create table webhook_listen_sessions (
      id text primary key,
      supplier_id text not null,
      events text[] not null,
      lease_until timestamptz not null,
      created_at timestamptz not null
    );
    create index webhook_listen_sessions_supplier on webhook_listen_sessions (supplier_id);
    create table webhook_listen_events (
      id text primary key,
      session_id text not null,
      event_id text not null,
      event_type text not null,
      body text not null,
      created_at timestamptz not null
    );
    create unique index webhook_listen_events_once on webhook_listen_events (session_id, event_id);`),
  // a process that finds the store went back in time rebuilds the read models unless another
  // did after the rewind: when the rebuild that set a checkpoint began
  '027_projection_rebuilt_at': ddl(`
    alter table projection_checkpoints add column rebuilt_at timestamptz;`),
  // what a start of a new release did once to the data an older one wrote, by name: the
  // keying of stored token hashes and the signing of older ledger entries
  // (src/commands/older-data.ts). A start that finds its row does not do it again, so data
  // written later in the older shape (by hand) is never adopted.
  '028_upgrades': ddl(`
    create table upgrades (
      name text primary key,
      done_at timestamptz not null,
      summary jsonb not null
    );`),
  // one owner per key value across the marketplace, by keyed fingerprint (never the key): an
  // upload claims its keys before its event is appended, so two suppliers uploading the same
  // key at once meet here, whichever appends first (src/commands/key-claims.ts)
  '035_key_fingerprints': ddl(`
    create table key_fingerprints (
      fingerprint text primary key,
      item_id text not null,
      offer_id text not null,
      supplier_id text not null,
      claimed_at timestamptz not null default now()
    );`),
  // the trace context (W3C traceparent) of the event that scheduled a timer or made a webhook
  // delivery, with tracing on: its run, and every retry of the delivery, are steps of the
  // order's trace however long after they come (null with tracing off)
  '036_trace_contexts': ddl(`
    alter table timers add column traceparent text;
    alter table webhook_deliveries add column traceparent text;`),
  // the offers projector's inventory_items with two b-tree entries per item, not four (an
  // import's rows were over half its statements' time): the status filter's index holds only
  // the items that left `available` (an available item is found by the offer's id index), and
  // the batch filter reads a BRIN index, a batch's rows being written together. A database
  // whose read models are not made yet, or made by the projector's version before batches
  // (no batch index), gets them from the projector's DDL when it builds or rebuilds them.
  '050_inventory_items_fewer_indexes': ddl(`
    do $$ begin
      if to_regclass('public.inventory_items_offer_id_batch_id_id_idx') is not null then
        drop index if exists public.inventory_items_offer_id_status_id_idx;
        drop index if exists public.inventory_items_offer_id_batch_id_id_idx;
        create index if not exists inventory_items_moved on public.inventory_items (offer_id, status, id)
          where status <> 'available';
        create index if not exists inventory_items_batch on public.inventory_items
          using brin (batch_id) with (autosummarize = on);
      end if;
    end $$;`),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema they create exists
export const migrate = async (db: Kysely<any>): Promise<void> => {
  // migrations are numbered in ranges by the changes that add them, so one may land after a
  // higher number already ran on a database (028 after 035): each runs once, whatever the order
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? ''} failed: ${String(error)}`);
  }
};
