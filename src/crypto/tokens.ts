import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../config.js';

/** Supplier bearer tokens name their environment, so a sandbox token is refused in production at a glance. */
export const tokenPrefix = (env: Environment) => (env === 'sandbox' ? 'svc_test_' : 'svc_live_');

export const newSupplierToken = (env: Environment): string => tokenPrefix(env) + randomBytes(20).toString('hex');

export const newOperatorToken = (): string => `svc_op_${randomBytes(24).toString('hex')}`;

/**
 * Tokens carry 160 bits of randomness, so a plain SHA-256 is enough to store them:
 * there is nothing to brute-force that a slow hash would protect.
 */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const sameSecret = (a: string, b: string): boolean => {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
};
