import { createHmac, createSecretKey, hash, hkdfSync, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../config.js';
import { KEYED_TOKEN_HASH } from '../domain/supplier.js';

/** Supplier bearer tokens name their environment, so a sandbox token is refused in production at a glance. */
export const tokenPrefix = (env: Environment) => (env === 'sandbox' ? 'svc_test_' : 'svc_live_');

export const newSupplierToken = (env: Environment): string => tokenPrefix(env) + randomBytes(20).toString('hex');

export const newOperatorToken = (): string => `svc_op_${randomBytes(24).toString('hex')}`;

/**
 * Tokens carry 160 bits of randomness, so a plain SHA-256 is enough to keep them secret:
 * there is nothing to brute-force that a slow hash would protect. It is not enough to
 * store them by (anyone who can write a row could write one for a token of their own):
 * the stored form is `keyedTokenHash` over it. Console session ids are kept by this hash,
 * their cookies being sealed with the service's key.
 */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** The key of stored token hashes per secret key: derived once, never stored anywhere. */
const tokenKeys = new Map<string, KeyObject>();

const tokenKeyOf = (secretKeyHex: string): KeyObject => {
  let key = tokenKeys.get(secretKeyHex);
  if (!key) {
    key = createSecretKey(
      Buffer.from(hkdfSync('sha256', Buffer.from(secretKeyHex, 'hex'), Buffer.alloc(0), 'svc token hash', 32)),
    );
    // a handful of services per process at most (tests start several)
    if (tokenKeys.size >= 16) tokenKeys.delete(tokenKeys.keys().next().value!);
    tokenKeys.set(secretKeyHex, key);
  }
  return key;
};

/**
 * The stored form of a token: HMAC-SHA-256, under a key derived from SVC_SECRET_KEY, of
 * its plain hash (`hashToken`), prefixed with the scheme. The database never holds the key,
 * so write access to it cannot make a row that a token of one's own matches. Keyed over the
 * plain hash, not the token, so the hashes stored before it can be keyed without the tokens
 * (the upgrade does, src/commands/older-data.ts).
 */
export const keyedTokenHash = (secretKeyHex: string, plainHash: string): string =>
  KEYED_TOKEN_HASH + createHmac('sha256', tokenKeyOf(secretKeyHex)).update(plainHash).digest('hex');

// one-shot: half the time of a Hash object, on every request
const digestOf = (token: string): Buffer => hash('sha256', token, 'buffer');

/** The last secret `presented` compared against, with its digest: the operator token, in practice. */
let known: { secret: string; digest: Buffer } | undefined;

/**
 * A presented token, hashed once per request: whether it is `secret` (the digests compared
 * in constant time) and its plain hash (`hashToken`), which the look-up keys. The secret's
 * own digest is kept, so a request costs one hash where it cost three.
 */
export const presented = (token: string, secret: string): { isSecret: boolean; hash: string } => {
  if (known?.secret !== secret) known = { secret, digest: digestOf(secret) };
  const digest = digestOf(token);
  return { isSecret: timingSafeEqual(digest, known.digest), hash: digest.toString('hex') };
};
