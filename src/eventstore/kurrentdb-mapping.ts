/**
 * The pure half of the KurrentDB adapter: how the port's ids, revisions, positions,
 * metadata and errors look on the KurrentDB side and back. No I/O here, so every rule is
 * unit-tested without a server.
 */
import { createHash } from 'node:crypto';
import { WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import {
  comparePositions,
  type EventMetadata,
  type ExpectedRevision,
  MAX_SCHEMA_VERSION,
  type Position,
  WrongExpectedRevision,
} from './port.js';

// ---------------------------------------------------------------------------------------
// Event ids. KurrentDB wants a UUID per event; the port hands out ULIDs. A ULID and a UUID
// are both 128 bits, so a ULID is written as the UUID with the same bits and read back
// exactly: one event keeps one id in both stores, and ids stay time-ordered on both sides.
// ---------------------------------------------------------------------------------------

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUlid = (id: string): boolean => ULID.test(id);

const hexToUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/** The UUID carrying the same 128 bits as a canonical (upper-case) ULID. */
export const ulidToUuid = (ulid: string): string => {
  if (!isUlid(ulid)) throw new Error(`not a ULID: ${ulid}`);
  let value = 0n;
  for (const ch of ulid) value = value * 32n + BigInt(CROCKFORD.indexOf(ch));
  return hexToUuid(value.toString(16).padStart(32, '0'));
};

/** The ULID carrying the same 128 bits as a UUID (any UUID maps to a valid ULID). */
export const uuidToUlid = (uuid: string): string => {
  if (!UUID.test(uuid)) throw new Error(`not a UUID: ${uuid}`);
  let value = BigInt(`0x${uuid.replace(/-/g, '')}`);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = CROCKFORD[Number(value % 32n)]! + out;
    value /= 32n;
  }
  return out;
};

/** A name-based UUID (version 5 layout, SHA-1) for an id that is not a ULID. */
export const nameUuid = (name: string): string => {
  const bytes = createHash('sha1').update(`marketplace-event:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return hexToUuid(bytes.toString('hex'));
};

// ---------------------------------------------------------------------------------------
// Metadata. The port's metadata is written as the event's JSON metadata, unchanged, plus
// what KurrentDB has no field for: the time the command gave the append (its own `created`
// is the server's clock), only for an id that is not a ULID, that id, and only for a
// schema version above 1, that version (absent reads as 1, so every event written before
// versions, and every version-1 event, is stored as it always was).
// ---------------------------------------------------------------------------------------

export const CREATED_AT_KEY = 'es_created_at';
export const EVENT_ID_KEY = 'es_event_id';
export const SCHEMA_VERSION_KEY = 'es_schema_version';

export interface StoredIdentity {
  uuid: string;
  metadata: Record<string, unknown>;
}

/** The KurrentDB id and metadata for one port event. */
export const toStored = (
  id: string,
  metadata: EventMetadata | undefined,
  at: Date,
  schemaVersion = 1,
): StoredIdentity => {
  const stored: Record<string, unknown> = { ...metadata, [CREATED_AT_KEY]: at.toISOString() };
  if (schemaVersion !== 1) stored[SCHEMA_VERSION_KEY] = schemaVersion;
  if (isUlid(id)) return { uuid: ulidToUuid(id), metadata: stored };
  return { uuid: nameUuid(id), metadata: { ...stored, [EVENT_ID_KEY]: id } };
};

/**
 * The port's id, metadata, schema version and time of a stored event. A version that is
 * not a whole number from 1 up is refused: folding data of an unknown shape would be worse.
 */
export const fromStored = (
  uuid: string,
  raw: unknown,
  serverCreated: Date,
): { id: string; metadata: EventMetadata; schemaVersion: number; createdAt: Date } => {
  const all =
    raw && typeof raw === 'object' && !(raw instanceof Uint8Array) ? { ...(raw as Record<string, unknown>) } : {};
  const givenId = all[EVENT_ID_KEY];
  const at = all[CREATED_AT_KEY];
  const version = SCHEMA_VERSION_KEY in all ? all[SCHEMA_VERSION_KEY] : 1;
  delete all[EVENT_ID_KEY];
  delete all[CREATED_AT_KEY];
  delete all[SCHEMA_VERSION_KEY];
  const id = typeof givenId === 'string' ? givenId : uuidToUlid(uuid);
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > MAX_SCHEMA_VERSION)
    throw new Error(
      `event ${id}: stored schema version ${JSON.stringify(version)} is not an integer from 1 to ${MAX_SCHEMA_VERSION}`,
    );
  const createdAt = typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? new Date(at) : serverCreated;
  return { id, metadata: all, schemaVersion: version, createdAt };
};

// ---------------------------------------------------------------------------------------
// Revisions and positions.
// ---------------------------------------------------------------------------------------

export type KurrentStreamState = 'any' | 'no_stream' | 'stream_exists' | bigint;

export const toStreamState = (expected: ExpectedRevision): KurrentStreamState =>
  typeof expected === 'number' ? BigInt(expected) : expected;

/** The port's actual revision from KurrentDB's current stream state. */
export const actualRevision = (state: bigint | 'no_stream' | undefined): number | 'no_stream' =>
  state === undefined || state === 'no_stream' || state < 0n ? 'no_stream' : Number(state);

/**
 * KurrentDB's $all position has the same two parts as the port's; START (0/0) is the
 * client's `start` constant. Reads of $all from a position include the event there, so
 * every read passes the position and drops what is not strictly after it.
 */
export const toReadPosition = (p: Position): 'start' | Position => (p.commit === 0n && p.prepare === 0n ? 'start' : p);

export const isAfter = (p: Position, after: Position): boolean => comparePositions(p, after) > 0;

/** System events ($-types) and $-streams ($stats, $users, metadata streams `$$x`) are KurrentDB's own. */
export const isSystemEvent = (streamId: string, type: string): boolean =>
  streamId.startsWith('$') || type.startsWith('$');

// ---------------------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------------------

/** KurrentDB's WrongExpectedVersionError as the port's WrongExpectedRevision; other errors as they are. */
export const toPortError = (streamId: string, expected: ExpectedRevision, error: unknown): unknown =>
  error instanceof WrongExpectedVersionError
    ? new WrongExpectedRevision(streamId, expected, actualRevision(error.actualState))
    : error;

const TRANSIENT_TYPES = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'cancelled', 'not-leader', 'unknown']);

/**
 * True for an error a subscription outlives by connecting again: the server gone, a
 * leader change in a cluster, a call cut. Anything else (access denied, a bad request)
 * would fail the same way again and is reported instead.
 */
export const isTransient = (error: unknown): boolean => {
  const e = error as { type?: unknown; code?: unknown; message?: unknown } | undefined;
  if (!e) return false;
  if (typeof e.type === 'string' && TRANSIENT_TYPES.has(e.type)) return true;
  // a raw gRPC status: 1 CANCELLED, 4 DEADLINE_EXCEEDED, 14 UNAVAILABLE
  if (e.code === 1 || e.code === 4 || e.code === 14) return true;
  return typeof e.message === 'string' && /UNAVAILABLE|ECONNREFUSED|ECONNRESET|socket hang up/i.test(e.message);
};
