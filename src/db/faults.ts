import { PROCESS_STOPPING } from './pg-client.js';

/**
 * Errors that mean "the database cannot be reached right now" rather than "this request
 * is wrong": the session was ended (failover, restart, pg_terminate_backend), the network
 * dropped, the server refuses connections while it starts or stops, no connection came in
 * time, or the process is stopping and opens none (or has closed the pool). Requests that
 * meet one are answered 503 service_unavailable with Retry-After; background loops wait and
 * try again.
 */
const SQLSTATE_CLASSES = ['08', '53', '57P']; // connection exception, insufficient resources, operator intervention
/**
 * A write on a server still in recovery: the primary's address leads to a member that holds
 * the leader key but has not finished its promotion yet (a failover under way), or to a
 * standby. A moment later the same write goes through.
 */
const SQLSTATES = new Set(['25006']);
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection timeout',
  'the database system is',
  'is not currently accepting connections',
  PROCESS_STOPPING,
  'Cannot use a pool after calling end on the pool', // pg's: the process is closing its pool
];

/**
 * What the service raises itself when a read stops waiting for a database that cannot be
 * reached (src/db/reachability.ts): answered 503 with Retry-After like the driver's own errors.
 */
export class DatabaseUnreachable extends Error {}

export const isDatabaseUnavailable = (error: unknown): boolean => {
  if (!error || typeof error !== 'object') return false;
  if (error instanceof DatabaseUnreachable) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NODE_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && (SQLSTATES.has(code) || SQLSTATE_CLASSES.some((c) => code.startsWith(c))))
      return true;
  }
  if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  // kysely and pg wrap some errors (AggregateError from a failed connect to every address)
  const inner = (error as { errors?: unknown[]; cause?: unknown }).errors ?? [(error as { cause?: unknown }).cause];
  return inner.some((e) => e !== error && isDatabaseUnavailable(e));
};

/** Seconds a client is told to wait before retrying a request refused for this. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;
