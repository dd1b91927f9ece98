import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../config.js';

/** Supplier bearer tokens name their environment, so a sandbox token is refused in production at a glance. */
export const tokenPrefix = (env: Environment) => (env === 'sandbox' ? 'svc_test_' : 'svc_live_');

export const newSupplierToken = (env: Environment): string => tokenPrefix(env) + randomBytes(20).toString('hex');

export const newOperatorToken = (): string => `svc_op_${randomBytes(24).toString('hex')}`;

/**
 * Tokens carry 160 bits of randomness, so a plain SHA-256 is enough to store them:
 * there is nothing to brute-force that a slow hash would protect.
 */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

// one-shot: half the time of a Hash object, on every request
const digestOf = (token: string): Buffer => hash('sha256', token, 'buffer');

/** The last secret `presented` compared against, with its digest: the operator token, in practice. */
let known: { secret: string; digest: Buffer } | undefined;

/**
 * A presented token, hashed once per request: whether it is `secret` (the digests compared
 * in constant time) and its stored form (`hashToken`). The secret's own digest is kept,
 * so a request costs one hash where it cost three.
 */
export const presented = (token: string, secret: string): { isSecret: boolean; hash: string } => {
  if (known?.secret !== secret) known = { secret, digest: digestOf(secret) };
  const digest = digestOf(token);
  return { isSecret: timingSafeEqual(digest, known.digest), hash: digest.toString('hex') };
};
