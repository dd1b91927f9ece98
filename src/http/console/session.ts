import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../../crypto/secret-box.js';
import { hashToken } from '../../crypto/tokens.js';
import type { Database } from '../../db/schema.js';

/**
 * The console's session: the supplier token, a CSRF token and the session's id, sealed with
 * the service key into one cookie that is HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it) and Secure over HTTPS. The seal makes the cookie unreadable and
 * unforgeable, but a copy of it stays valid as long as the seal does: so the session also
 * lives as a row in Postgres, shared by every instance, and a cookie opens a page only while
 * its row is there, unexpired (8 hours), and its token unrevoked. Signing out deletes the
 * row: a copy of the cookie kept past sign-out, replayed on any instance, is signed out.
 */
export const SESSION_COOKIE = 'svc_console';
/** Before sign-in: a double-submit token for the sign-in form (login CSRF). */
export const SIGN_IN_COOKIE = 'svc_console_signin';
const SESSION_SECONDS = 8 * 3600;
const SIGN_IN_SECONDS = 3600;

export interface ConsoleSession {
  /** Random, in the sealed cookie only; the row is keyed by its hash. */
  id: string;
  token: string;
  csrf: string;
  supplierId: string;
  supplierName: string;
  expiresAt: number;
}

export const cookies = (req: FastifyRequest): Map<string, string> => {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) {
      const value = decodedOrNothing(part.slice(at + 1).trim());
      // another cookie of the host, malformed: not ours to read, and no reason to fail
      if (value !== undefined) out.set(part.slice(0, at).trim(), value);
    }
  }
  return out;
};

const decodedOrNothing = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/** A console cookie: HttpOnly, SameSite=Strict, for the console's paths only, Secure over HTTPS. */
export const cookie = (req: FastifyRequest, name: string, value: string, maxAge: number) =>
  `${name}=${encodeURIComponent(value)}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${req.protocol === 'https' ? '; Secure' : ''}`;

export const newToken = () => randomBytes(24).toString('base64url');

export const sameToken = (a: string | undefined, b: string | undefined): boolean =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.length === b.length &&
  a.length > 0 &&
  timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The cookie's session, if the cookie is ours and by its own clock unexpired; not yet looked up. */
const unsealed = (req: FastifyRequest, box: SecretBox, now: Date): ConsoleSession | undefined => {
  const sealed = cookies(req).get(SESSION_COOKIE);
  if (!sealed) return undefined;
  try {
    const session = JSON.parse(box.open(sealed)) as ConsoleSession;
    // a cookie sealed before sessions had rows names none: signed out
    return typeof session.id === 'string' && session.expiresAt > now.getTime() ? session : undefined;
  } catch {
    return undefined; // not ours, or sealed under another key: signed out
  }
};

/**
 * Whether the request carries a session cookie that opens and is unexpired by its own clock:
 * no database read, so it can decide how a request is metered before anything else runs.
 */
export const carriesSession = (req: FastifyRequest, box: SecretBox, now: Date): boolean =>
  unsealed(req, box, now) !== undefined;

export interface SessionDeps {
  box: SecretBox;
  db: Kysely<Database>;
  now: () => Date;
}

const verified = new WeakMap<FastifyRequest, ConsoleSession>();

/**
 * Looks the request's session up, once per console request and only when it carries a
 * cookie that opens: one query by primary key, joined to its token by unique id. A row
 * signed out, expired or of a revoked token finds nothing, and the request is signed out.
 */
export const loadSession = async (req: FastifyRequest, deps: SessionDeps): Promise<void> => {
  const now = deps.now();
  const session = unsealed(req, deps.box, now);
  if (!session) return;
  const row = await deps.db
    .selectFrom('console_sessions as s')
    .innerJoin('supplier_tokens as t', 't.token_id', 's.token_id')
    .select('s.id_hash')
    .where('s.id_hash', '=', hashToken(session.id))
    .where('s.expires_at', '>', now)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
  if (row) verified.set(req, session);
};

/** The request's session as `loadSession` found it live, or undefined: signed out. */
export const readSession = (req: FastifyRequest): ConsoleSession | undefined => verified.get(req);

export const startSession = async (
  req: FastifyRequest,
  reply: FastifyReply,
  deps: SessionDeps,
  who: Omit<ConsoleSession, 'id' | 'csrf' | 'expiresAt'> & { tokenId: string },
) => {
  const now = deps.now();
  const { tokenId, ...holder } = who;
  const session: ConsoleSession = {
    ...holder,
    id: newToken(),
    csrf: newToken(),
    expiresAt: now.getTime() + SESSION_SECONDS * 1000,
  };
  await deps.db
    .insertInto('console_sessions')
    .values({
      id_hash: hashToken(session.id),
      token_id: tokenId,
      supplier_id: session.supplierId,
      created_at: now,
      expires_at: new Date(session.expiresAt),
    })
    .execute();
  reply.header('set-cookie', [
    cookie(req, SESSION_COOKIE, deps.box.seal(JSON.stringify(session)), SESSION_SECONDS),
    cookie(req, SIGN_IN_COOKIE, '', 0),
  ]);
};

/** Signs the session out on the server (every instance reads the same row) and in the browser. */
export const endSession = async (req: FastifyRequest, reply: FastifyReply, db: Kysely<Database>) => {
  const session = readSession(req);
  if (session) await db.deleteFrom('console_sessions').where('id_hash', '=', hashToken(session.id)).execute();
  reply.header('set-cookie', cookie(req, SESSION_COOKIE, '', 0));
};

/** Forgets sessions past their 8 hours (the hourly maintenance); those are signed out already. */
export const purgeConsoleSessions = (db: Kysely<Database>, now: Date) =>
  db.deleteFrom('console_sessions').where('expires_at', '<=', now).execute();

/**
 * The sign-in form's double-submit token (login CSRF), made anew for every rendering of the
 * form and sealed with the service key, with an hour to live: a value already in the browser
 * may have been planted there (by a sibling host's cookie) by someone who chose it, so none
 * is ever taken up, and only a value this service sealed counts.
 */
export const signInToken = (reply: FastifyReply, req: FastifyRequest, deps: Omit<SessionDeps, 'db'>): string => {
  const token = deps.box.seal(JSON.stringify({ n: newToken(), until: deps.now().getTime() + SIGN_IN_SECONDS * 1000 }));
  reply.header('set-cookie', cookie(req, SIGN_IN_COOKIE, token, SIGN_IN_SECONDS));
  return token;
};

/** The sign-in form's token is the one its cookie holds, and this service sealed it within the hour. */
export const signInTokenHolds = (req: FastifyRequest, posted: unknown, deps: Omit<SessionDeps, 'db'>): boolean => {
  const token = typeof posted === 'string' ? posted : undefined;
  if (!sameToken(token, cookies(req).get(SIGN_IN_COOKIE))) return false;
  try {
    const { until } = JSON.parse(deps.box.open(token ?? '')) as { until: unknown };
    return typeof until === 'number' && until > deps.now().getTime();
  } catch {
    return false;
  }
};

/** A form post must come from this origin's own page: Origin, when sent, names it. */
export const sameOrigin = (req: FastifyRequest): boolean => {
  const origin = req.headers.origin;
  return origin === undefined || origin === `${req.protocol}://${req.host}`;
};
