/**
 * DDL of the Postgres event store. The global order is (transaction id, sequence): a
 * reader only reads below the oldest transaction still running (the snapshot's xmin), so
 * an append that commits late with a small sequence number is never skipped. This is the
 * first migration's schema: migration 016 dropped `es_streams` (see appendByLastEventDdl).
 */
export const eventStoreTablesDdl = `
create table es_streams (
  stream_id text primary key,
  revision bigint not null,
  -- xid of the last transaction that appended; a later append must have a larger one so
  -- that the (xid, sequence) order keeps every stream's events in revision order
  last_xid xid8 not null
);

create table es_events (
  position bigint generated always as identity primary key,
  transaction_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  stream_revision bigint not null,
  event_id text not null unique,
  type text not null,
  data jsonb not null,
  metadata jsonb not null,
  created_at timestamptz not null,
  unique (stream_id, stream_revision)
);

create index es_events_global_order on es_events (transaction_id, position);
`;

/**
 * Every version of `es_append` checks alike, once it knows the stream's revision
 * (`v_current`, -1 for none) and the transaction that wrote its last event (`v_last_xid`).
 */
const CHECKS = `  if (p_expected = 'no_stream' and v_current <> -1)
     or (p_expected = 'stream_exists' and v_current = -1)
     or (p_expected ~ '^-?[0-9]+$' and v_current <> p_expected::bigint) then
    raise exception 'wrong expected revision' using errcode = 'SV409', detail = v_current::text;
  end if;

  if v_xid < v_last_xid then
    -- this transaction took its id before the one that appended last: retrying with a
    -- fresh transaction keeps the global order consistent with the stream's order
    raise exception 'append raced an older transaction' using errcode = '40001';
  end if;

  if v_count = 0 then
    return query select v_current, v_xid, 0::bigint;
    return;
  end if;
`;

/**
 * The append function. The first schema notified inside it; that made every appending
 * transaction queue for PostgreSQL's notify lock at commit (no shared disk flushes), so
 * the adapter now announces appends itself, after commit, coalesced. With `schemaVersion`
 * it also stores each event's `schema_version` (1 when the payload has none); without, it
 * is the function the earlier migrations created, kept as it was.
 */
export const appendFunctionDdl = (notify: boolean, schemaVersion = false, createAtRevision = false) => `
create or replace function es_append(p_stream text, p_expected text, p_events jsonb, p_created_at timestamptz)
returns table (next_revision bigint, commit_position xid8, prepare_position bigint)
language plpgsql as $$
declare
  v_current bigint;
  v_last_xid xid8;
  v_xid xid8 := pg_current_xact_id();
  v_count int := jsonb_array_length(p_events);
  v_position bigint;
  v_created boolean := false;
begin
  loop
    select s.revision, s.last_xid into v_current, v_last_xid from es_streams s where s.stream_id = p_stream for update;
    exit when found;
    insert into es_streams (stream_id, revision, last_xid) values (p_stream, ${createAtRevision ? 'v_count - 1' : '-1'}, v_xid) on conflict do nothing;
    if found then
      v_current := -1;
      v_last_xid := v_xid;
      v_created := true;
      exit;
    end if;
    -- a concurrent append created the stream first: loop and lock its row
  end loop;

${CHECKS}
  with inserted as (
    insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at${schemaVersion ? ', schema_version' : ''})
    select p_stream, v_current + e.ord, e.value->>'id', e.value->>'type', e.value->'data', e.value->'metadata', p_created_at${
      schemaVersion ? ", coalesce((e.value->>'schema_version')::smallint, 1)" : ''
    }
    from jsonb_array_elements(p_events) with ordinality as e(value, ord)
    order by e.ord
    returning position
  )
  select max(position) into v_position from inserted;
  ${
    createAtRevision
      ? `-- a stream this append created has its final revision already
  if not v_created then
    update es_streams set revision = v_current + v_count, last_xid = v_xid where stream_id = p_stream;
  end if;`
      : 'update es_streams set revision = v_current + v_count, last_xid = v_xid where stream_id = p_stream;'
  }
${notify ? "  perform pg_notify('es_events', '');\n" : ''}  return query select v_current + v_count, v_xid, v_position;
end;
$$;
`;

export const eventStoreDdl = eventStoreTablesDdl + appendFunctionDdl(true);

/**
 * The append function since migration 016: no stream rows. The stream's last event (found
 * backwards on the (stream_id, stream_revision) unique index) gives its revision and the
 * transaction that wrote it, so an append is one index probe and the event's insert, where
 * it was a lock and a write of the stream's row as well. Two appends racing on a stream meet
 * on that unique index: the second waits for the first and then fails with a unique
 * violation, which the adapter answers as a wrong expected revision (or retries, for 'any').
 * Migration 016 created it taking the transaction id on entry; 017 takes it after the lock.
 */
export const appendByLastEventDdl = (xidAfterLock = false) => `
create or replace function es_append(p_stream text, p_expected text, p_events jsonb, p_created_at timestamptz)
returns table (next_revision bigint, commit_position xid8, prepare_position bigint)
language plpgsql as $$
declare
  v_current bigint := -1;
  v_last_xid xid8;
  v_xid xid8${xidAfterLock ? '' : ' := pg_current_xact_id()'};
  v_count int := jsonb_array_length(p_events);
  v_position bigint;
begin
  if p_expected in ('any', 'stream_exists') then
    -- appends that do not name a revision queue per stream (in memory, until commit), so
    -- a busy stream does not turn them into rounds of losing races; the statement below
    -- then reads with a snapshot taken after the previous holder committed
    perform pg_advisory_xact_lock(hashtextextended('es_append:' || p_stream, 0));
  end if;${
    xidAfterLock
      ? `
  -- the transaction id is taken once the lock is held: one taken before the wait is older
  -- than the holder's that commits meanwhile, and the check below would refuse the append
  -- (a queue of appenders to one stream then lost race after race)
  v_xid := pg_current_xact_id();`
      : ''
  }
  select e.stream_revision, e.transaction_id into v_current, v_last_xid
    from es_events e where e.stream_id = p_stream order by e.stream_revision desc limit 1;
  if not found then
    v_current := -1;
  end if;

${CHECKS}
  with inserted as (
    insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at, schema_version)
    select p_stream, v_current + e.ord, e.value->>'id', e.value->>'type', e.value->'data', e.value->'metadata', p_created_at,
      coalesce((e.value->>'schema_version')::smallint, 1)
    from jsonb_array_elements(p_events) with ordinality as e(value, ord)
    order by e.ord
    returning position
  )
  select max(position) into v_position from inserted;
  return query select v_current + v_count, v_xid, v_position;
end;
$$;
`;

/**
 * Several appends that name their revision, in one transaction (migration 019): what the
 * adapter sends when appends queue up behind the ones in flight, so a busy process commits
 * many appends at once instead of one commit and one round trip each. Each append is its
 * own subtransaction, all or nothing, checked as the single INSERT checks it (the expected
 * revision's event exists and comes from this or an older transaction; the unique index
 * refuses a revision already taken), and answers its own outcome instead of failing the
 * others: `ok` with its last event's position, `older` (nothing written: the expected
 * revision is not there yet for this transaction), `taken` (the revision is another
 * append's), `contended` (another transaction's append to its stream is still open: it
 * waited 20 ms, and the adapter sends it again alone, where it waits as long as it must,
 * instead of the whole batch waiting), or `error` with the SQLSTATE and message. The adapter
 * sends them ordered by stream, so two batches waiting on each other's rows always wait in
 * the same direction.
 */
export const appendBatchFunctionDdl = `
create function es_append_batch(p_appends jsonb)
returns table (idx integer, status text, commit_position text, prepare_position bigint, error_code text, error_message text)
language plpgsql volatile as $$
declare
  a record;
  v_commit text;
  v_position bigint;
  v_constraint text;
begin
  perform set_config('lock_timeout', '20ms', true);
  for a in select (x.ord - 1)::integer as i, x.value as v, x.value->>'stream' as stream,
      (x.value->>'revision')::bigint as revision
    from jsonb_array_elements(p_appends) with ordinality as x(value, ord) order by x.ord
  loop
    begin
      v_commit := null;
      with inserted as (
        insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at, schema_version)
        select a.stream, a.revision + e.ord, e.id, e.type, e.data, e.metadata, (a.v->>'at')::timestamptz, e.schema_version
        from rows from (jsonb_to_recordset(a.v->'events')
            as (id text, type text, data jsonb, metadata jsonb, schema_version smallint))
          with ordinality as e(id, type, data, metadata, schema_version, ord)
        where a.revision = -1 or exists (select 1 from es_events p
          where p.stream_id = a.stream and p.stream_revision = a.revision and p.transaction_id <= pg_current_xact_id())
        order by e.ord
        returning transaction_id, position
      )
      select i.transaction_id::text, i.position into v_commit, v_position
        from inserted i order by i.position desc limit 1;
      if v_commit is null then
        return query select a.i, 'older'::text, null::text, null::bigint, null::text, null::text;
      else
        return query select a.i, 'ok'::text, v_commit, v_position, null::text, null::text;
      end if;
    exception
      when lock_not_available then
        return query select a.i, 'contended'::text, null::text, null::bigint, null::text, null::text;
      when unique_violation then
        get stacked diagnostics v_constraint = constraint_name;
        if v_constraint = 'es_events_stream_id_stream_revision_key' then
          return query select a.i, 'taken'::text, null::text, null::bigint, null::text, null::text;
        else
          return query select a.i, 'error'::text, null::text, null::bigint, sqlstate::text, sqlerrm::text;
        end if;
      when others then
        return query select a.i, 'error'::text, null::text, null::bigint, sqlstate::text, sqlerrm::text;
    end;
  end loop;
end $$;
`;

/**
 * Groups of appends in one transaction (migration 020), for the batches the adapter sends
 * (postgres-append-batch.ts). It does what `es_append_batch` does, with a group in the place
 * of each append: a group is one or more appends to different streams, written all or none
 * in one subtransaction (`EventStore.appendMany`), each part checked as the single INSERT
 * checks it. A group answers a row per part when written (`ok`, with that part's last
 * position), or one row naming the part that stopped it (`older`, `taken`, `contended`,
 * `error`), and then nothing of the group is written. A lone append is a group of one part.
 * `p_lock_timeout` is how long a part waits for another transaction's open append to its
 * stream before its group is answered `contended`: 20 ms in a batch, and a group sent again
 * alone waits as long as it must ('0'). `es_append_batch` stays for instances not yet on this
 * release.
 */
export const appendGroupsFunctionDdl = `
create function es_append_groups(p_groups jsonb, p_lock_timeout text)
returns table (idx integer, part integer, status text, commit_position text, prepare_position bigint,
  error_code text, error_message text)
language plpgsql volatile as $$
declare
  g record;
  p record;
  v_commit text;
  v_position bigint;
  v_constraint text;
  v_part integer;
  v_parts integer[];
  v_commits text[];
  v_positions bigint[];
begin
  perform set_config('lock_timeout', p_lock_timeout, true);
  for g in select (x.ord - 1)::integer as i, x.value as v
    from jsonb_array_elements(p_groups) with ordinality as x(value, ord) order by x.ord
  loop
    v_parts := '{}';
    v_commits := '{}';
    v_positions := '{}';
    v_part := null;
    begin
      for p in select (y.ord - 1)::integer as i, y.value as v, y.value->>'stream' as stream,
          (y.value->>'revision')::bigint as revision
        from jsonb_array_elements(g.v->'parts') with ordinality as y(value, ord) order by y.ord
      loop
        v_part := p.i;
        v_commit := null;
        with inserted as (
          insert into es_events (stream_id, stream_revision, event_id, type, data, metadata, created_at, schema_version)
          select p.stream, p.revision + e.ord, e.id, e.type, e.data, e.metadata, (g.v->>'at')::timestamptz, e.schema_version
          from rows from (jsonb_to_recordset(p.v->'events')
              as (id text, type text, data jsonb, metadata jsonb, schema_version smallint))
            with ordinality as e(id, type, data, metadata, schema_version, ord)
          where p.revision = -1 or exists (select 1 from es_events q
            where q.stream_id = p.stream and q.stream_revision = p.revision and q.transaction_id <= pg_current_xact_id())
          order by e.ord
          returning transaction_id, position
        )
        select i.transaction_id::text, i.position into v_commit, v_position
          from inserted i order by i.position desc limit 1;
        if v_commit is null then
          -- undoes the group's earlier parts: the whole group is answered 'older'
          raise exception using errcode = 'SV410';
        end if;
        v_parts := v_parts || p.i;
        v_commits := v_commits || v_commit;
        v_positions := v_positions || v_position;
      end loop;
      return query select g.i, u.part, 'ok'::text, u.c, u.p, null::text, null::text
        from unnest(v_parts, v_commits, v_positions) as u(part, c, p);
    exception
      when sqlstate 'SV410' then
        return query select g.i, v_part, 'older'::text, null::text, null::bigint, null::text, null::text;
      when lock_not_available then
        return query select g.i, v_part, 'contended'::text, null::text, null::bigint, null::text, null::text;
      when unique_violation then
        get stacked diagnostics v_constraint = constraint_name;
        if v_constraint = 'es_events_stream_id_stream_revision_key' then
          return query select g.i, v_part, 'taken'::text, null::text, null::bigint, null::text, null::text;
        else
          return query select g.i, v_part, 'error'::text, null::text, null::bigint, sqlstate::text, sqlerrm::text;
        end if;
      when others then
        return query select g.i, v_part, 'error'::text, null::text, null::bigint, sqlstate::text, sqlerrm::text;
    end;
  end loop;
end $$;
`;
