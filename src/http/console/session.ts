import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecretBox } from '../../crypto/secret-box.js';

/**
 * The console's session: the supplier token and a CSRF token, sealed with the service key
 * into one cookie that is HttpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it) and Secure over HTTPS. Nothing is stored server-side; the seal makes the
 * cookie unreadable and unforgeable, and it expires after 8 hours by its own clock.
 */
export const SESSION_COOKIE = 'svc_console';
/** Before sign-in: a double-submit token for the sign-in form (login CSRF). */
export const SIGN_IN_COOKIE = 'svc_console_signin';
const SESSION_SECONDS = 8 * 3600;

export interface ConsoleSession {
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

const cookie = (req: FastifyRequest, name: string, value: string, maxAge: number) =>
  `${name}=${encodeURIComponent(value)}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${req.protocol === 'https' ? '; Secure' : ''}`;

export const newToken = () => randomBytes(24).toString('base64url');

export const sameToken = (a: string | undefined, b: string | undefined): boolean =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.length === b.length &&
  a.length > 0 &&
  timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const readSession = (req: FastifyRequest, box: SecretBox, now: Date): ConsoleSession | undefined => {
  const sealed = cookies(req).get(SESSION_COOKIE);
  if (!sealed) return undefined;
  try {
    const session = JSON.parse(box.open(sealed)) as ConsoleSession;
    return session.expiresAt > now.getTime() ? session : undefined;
  } catch {
    return undefined; // not ours, or sealed under another key: signed out
  }
};

export const startSession = (
  req: FastifyRequest,
  reply: FastifyReply,
  box: SecretBox,
  now: Date,
  who: Omit<ConsoleSession, 'csrf' | 'expiresAt'>,
) => {
  const session: ConsoleSession = { ...who, csrf: newToken(), expiresAt: now.getTime() + SESSION_SECONDS * 1000 };
  reply.header('set-cookie', [
    cookie(req, SESSION_COOKIE, box.seal(JSON.stringify(session)), SESSION_SECONDS),
    cookie(req, SIGN_IN_COOKIE, '', 0),
  ]);
};

export const endSession = (req: FastifyRequest, reply: FastifyReply) =>
  reply.header('set-cookie', cookie(req, SESSION_COOKIE, '', 0));

export const signInToken = (req: FastifyRequest, reply: FastifyReply): string => {
  const token = cookies(req).get(SIGN_IN_COOKIE) || newToken();
  reply.header('set-cookie', cookie(req, SIGN_IN_COOKIE, token, 3600));
  return token;
};

/** A form post must come from this origin's own page: Origin, when sent, names it. */
export const sameOrigin = (req: FastifyRequest): boolean => {
  const origin = req.headers.origin;
  return origin === undefined || origin === `${req.protocol}://${req.host}`;
};
