import {
  AccessDeniedError,
  DeadlineExceededError,
  NotLeaderError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { decodeTime, ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { EventStoreUnreachable, KurrentDbEventStore } from '../../src/eventstore/kurrentdb.js';
import {
  actualRevision,
  CREATED_AT_KEY,
  EVENT_ID_KEY,
  fromStored,
  isAfter,
  isSystemEvent,
  isTransient,
  isUlid,
  nameUuid,
  SCHEMA_VERSION_KEY,
  toPortError,
  toReadPosition,
  toStored,
  toStreamState,
  ulidToUuid,
  uuidToUlid,
} from '../../src/eventstore/kurrentdb-mapping.js';
import { describeAddress, isConnectionString, normalizeConnectionString } from '../../src/net/kurrentdb-address.js';
import { WrongExpectedRevision } from '../../src/eventstore/port.js';
import { newId } from '../../src/ids.js';

const at = new Date('2026-02-01T12:00:00.123Z');

describe('KurrentDB mapping: event ids', () => {
  it('writes a ULID as the UUID with the same 128 bits', () => {
    expect(ulidToUuid('00000000000000000000000000')).toBe('00000000-0000-0000-0000-000000000000');
    expect(ulidToUuid('0000000000000000000000000Z')).toBe('00000000-0000-0000-0000-00000000001f');
    expect(ulidToUuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    // the first 48 bits of a ULID are its millisecond time: the UUID starts with them
    const time = Date.UTC(2026, 1, 1, 12, 0, 0, 123);
    const id = ulid(time);
    const uuid = ulidToUuid(id);
    expect(uuid.replace(/-/g, '').slice(0, 12)).toBe(time.toString(16).padStart(12, '0'));
    expect(decodeTime(uuidToUlid(uuid))).toBe(time);
  });

  it('reads every ULID back exactly, and keeps their order', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    const uuids = ids.map(ulidToUuid);
    expect(uuids.map(uuidToUlid)).toEqual(ids);
    expect([...uuids].sort()).toEqual(uuids);
    expect(new Set(uuids).size).toBe(ids.length);
  });

  it('turns any UUID (an event written by another tool) into a valid ULID', () => {
    const foreign = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
    const id = uuidToUlid(foreign);
    expect(isUlid(id)).toBe(true);
    expect(ulidToUuid(id)).toBe(foreign);
    expect(uuidToUlid(foreign.toUpperCase())).toBe(id);
  });

  it('refuses what is neither', () => {
    expect(() => ulidToUuid('01arz3ndektsv4rrffq69g5fav')).toThrow('not a ULID');
    expect(() => ulidToUuid('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toThrow('not a ULID');
    expect(() => uuidToUlid('not-a-uuid')).toThrow('not a UUID');
  });

  it('gives an id that is not a ULID a name-based UUID and keeps the id itself in the metadata', () => {
    const a = nameUuid('order-1:placed');
    expect(a).toBe(nameUuid('order-1:placed'));
    expect(a).not.toBe(nameUuid('order-1:paid'));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const stored = toStored('order-1:placed', { correlation_id: 'c' }, at);
    expect(stored).toEqual({
      uuid: a,
      metadata: { correlation_id: 'c', [CREATED_AT_KEY]: at.toISOString(), [EVENT_ID_KEY]: 'order-1:placed' },
    });
    expect(fromStored(stored.uuid, stored.metadata, new Date(0)).id).toBe('order-1:placed');
  });
});

describe('KurrentDB mapping: metadata and time', () => {
  it('keeps the metadata as given and the time the command gave, not the server clock', () => {
    const id = newId();
    const metadata = {
      correlation_id: 'req-1',
      causation_id: 'evt-0',
      supplier_id: 'sup-1',
      mode: 'live' as const,
      extra: { n: 1 },
    };
    const stored = toStored(id, metadata, at);
    expect(stored.uuid).toBe(ulidToUuid(id));
    expect(stored.metadata).toEqual({ ...metadata, [CREATED_AT_KEY]: '2026-02-01T12:00:00.123Z' });
    const back = fromStored(stored.uuid, JSON.parse(JSON.stringify(stored.metadata)), new Date('2030-01-01T00:00:00Z'));
    expect(back).toEqual({ id, metadata, schemaVersion: 1, createdAt: at });
  });

  it('writes a schema version above 1 into the metadata and reads it back; absent reads as 1', () => {
    const id = newId();
    const stored = toStored(id, { correlation_id: 'c' }, at, 3);
    expect(stored.metadata).toEqual({
      correlation_id: 'c',
      [CREATED_AT_KEY]: at.toISOString(),
      [SCHEMA_VERSION_KEY]: 3,
    });
    expect(fromStored(stored.uuid, JSON.parse(JSON.stringify(stored.metadata)), at)).toEqual({
      id,
      metadata: { correlation_id: 'c' },
      schemaVersion: 3,
      createdAt: at,
    });
    // version 1 is stored as events always were, without the key
    expect(toStored(id, { correlation_id: 'c' }, at, 1).metadata).toEqual({
      correlation_id: 'c',
      [CREATED_AT_KEY]: at.toISOString(),
    });
    expect(fromStored(stored.uuid, { [CREATED_AT_KEY]: at.toISOString() }, at).schemaVersion).toBe(1);
  });

  it('refuses a stored schema version that is not a whole number from 1 up, naming the event', () => {
    const id = newId();
    for (const bad of [0, -1, 1.5, '2', null, 40_000])
      expect(() => fromStored(ulidToUuid(id), { [SCHEMA_VERSION_KEY]: bad }, at)).toThrow(
        `event ${id}: stored schema version ${JSON.stringify(bad)} is not an integer`,
      );
  });

  it('reads an event without our keys (or without metadata) with the server time', () => {
    const server = new Date('2026-03-01T00:00:00Z');
    const uuid = ulidToUuid(newId());
    expect(fromStored(uuid, undefined, server)).toEqual({
      id: uuidToUlid(uuid),
      metadata: {},
      schemaVersion: 1,
      createdAt: server,
    });
    expect(fromStored(uuid, new Uint8Array([1, 2]), server).metadata).toEqual({});
    expect(fromStored(uuid, { [CREATED_AT_KEY]: 'garbage', a: 1 }, server)).toMatchObject({
      metadata: { a: 1 },
      createdAt: server,
    });
    expect(toStored(newId(), undefined, at).metadata).toEqual({ [CREATED_AT_KEY]: at.toISOString() });
  });
});

describe('KurrentDB mapping: revisions, positions, errors', () => {
  it('maps every kind of expected revision', () => {
    expect(toStreamState('any')).toBe('any');
    expect(toStreamState('no_stream')).toBe('no_stream');
    expect(toStreamState('stream_exists')).toBe('stream_exists');
    expect(toStreamState(0)).toBe(0n);
    expect(toStreamState(41)).toBe(41n);
  });

  it('maps the actual revision a conflict reports', () => {
    expect(actualRevision('no_stream')).toBe('no_stream');
    expect(actualRevision(undefined)).toBe('no_stream');
    expect(actualRevision(-1n)).toBe('no_stream');
    expect(actualRevision(0n)).toBe(0);
    expect(actualRevision(7n)).toBe(7);
  });

  it("turns WrongExpectedVersionError into the port's WrongExpectedRevision with the actual revision", () => {
    const conflict = new WrongExpectedVersionError(undefined, { streamName: 'offer-1', current: 4n, expected: 2n });
    const mapped = toPortError('offer-1', 2, conflict);
    expect(mapped).toBeInstanceOf(WrongExpectedRevision);
    expect(mapped).toMatchObject({ streamId: 'offer-1', expected: 2, actual: 4 });
    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 'offer-2',
      current: 'no_stream',
      expected: 'stream_exists',
    });
    expect(toPortError('offer-2', 'stream_exists', missing)).toMatchObject({
      expected: 'stream_exists',
      actual: 'no_stream',
    });
    const other = new Error('boom');
    expect(toPortError('offer-1', 'any', other)).toBe(other);
  });

  it('reads $all from START with the client constant and compares positions strictly', () => {
    expect(toReadPosition({ commit: 0n, prepare: 0n })).toBe('start');
    expect(toReadPosition({ commit: 12n, prepare: 12n })).toEqual({ commit: 12n, prepare: 12n });
    expect(isAfter({ commit: 12n, prepare: 12n }, { commit: 12n, prepare: 12n })).toBe(false);
    expect(isAfter({ commit: 12n, prepare: 12n }, { commit: 12n, prepare: 11n })).toBe(true);
    expect(isAfter({ commit: 13n, prepare: 1n }, { commit: 12n, prepare: 99n })).toBe(true);
  });

  it("filters KurrentDB's own events and streams out", () => {
    expect(isSystemEvent('$stats-127.0.0.1:2113', 'StatsCollected')).toBe(true);
    expect(isSystemEvent('$$offer-1', '$metadata')).toBe(true);
    expect(isSystemEvent('$users', '$UserCreated')).toBe(true);
    expect(isSystemEvent('$ce-offer', '$>')).toBe(true);
    expect(isSystemEvent('offer-1', '$>')).toBe(true);
    expect(isSystemEvent('offer-1', 'OfferCreated')).toBe(false);
    expect(isSystemEvent('order-$1', 'OrderPlaced')).toBe(false);
  });

  it('reconnects after the server went away, a deadline or a leader change; reports anything else', () => {
    expect(isTransient(new UnavailableError())).toBe(true);
    expect(isTransient(new DeadlineExceededError(undefined as never))).toBe(true);
    expect(
      isTransient(
        new NotLeaderError({
          code: 5,
          details: 'Leader info available',
          metadata: { 'leader-endpoint-host': 'node2', 'leader-endpoint-port': '2113' },
        } as never),
      ),
    ).toBe(true);
    expect(isTransient(Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }))).toBe(true);
    expect(isTransient(new Error('connect ECONNREFUSED 127.0.0.1:2113'))).toBe(true);
    expect(isTransient(new AccessDeniedError(undefined as never))).toBe(false);
    expect(isTransient(new Error('projection handler failed'))).toBe(false);
    expect(isTransient(undefined)).toBe(false);
  });
});

describe('KurrentDB mapping: connection strings', () => {
  it('accepts kurrentdb:// and esdb:// (the old name), with or without discovery', () => {
    expect(isConnectionString('kurrentdb://localhost:2113?tls=false')).toBe(true);
    expect(isConnectionString('esdb://localhost:2113?tls=false')).toBe(true);
    expect(isConnectionString('esdb+discover://admin:changeit@cluster.local:2113')).toBe(true);
    expect(isConnectionString('kurrentdb://node1:2113,node2:2113,node3:2113')).toBe(true);
    expect(isConnectionString('http://localhost:2113')).toBe(false);
    expect(isConnectionString('localhost:2113')).toBe(false);
    expect(normalizeConnectionString('esdb://localhost:2113?tls=false')).toBe('kurrentdb://localhost:2113?tls=false');
    expect(normalizeConnectionString('esdb+discover://h:2113')).toBe('kurrentdb+discover://h:2113');
    expect(normalizeConnectionString('kurrentdb://h:2113')).toBe('kurrentdb://h:2113');
  });

  it('names the address without user name and password', () => {
    expect(describeAddress('kurrentdb://admin:changeit@node1:2113,node2:2113?tls=true')).toBe(
      'kurrentdb://node1:2113,node2:2113?tls=true',
    );
    expect(describeAddress('esdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
  });
});

describe('KurrentDB adapter without a server', () => {
  it('refuses to connect, naming the address it tried and never the password', async () => {
    // port 1 on loopback: nothing listens there, the connection is refused at once
    const attempt = KurrentDbEventStore.connect('kurrentdb://admin:s3cret-pass@127.0.0.1:1?tls=false');
    await expect(attempt).rejects.toBeInstanceOf(EventStoreUnreachable);
    const message = await attempt.catch((e: Error) => e.message);
    expect(message).toMatch(
      /^KurrentDB at kurrentdb:\/\/127\.0\.0\.1:1\?tls=false cannot be reached \(.+\); check SVC_KURRENTDB_URL and that the node is up$/,
    );
    expect(message).not.toContain('s3cret-pass');
  });
});
