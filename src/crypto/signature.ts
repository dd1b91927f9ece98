import { createHmac, randomBytes } from 'node:crypto';

/** `hex(hmac_sha256(secret, timestamp + "." + raw_body))`, the spec's `v1` scheme. */
export const signV1 = (secret: string, timestamp: string, rawBody: string | Buffer): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/**
 * The X-SVC-Signature value: one `v1=` entry per secret. During a rotation both the new
 * and the old secret sign, so a receiver holding either one verifies.
 */
export const signatureHeader = (secrets: string[], timestamp: string, rawBody: string | Buffer): string =>
  secrets.map((s) => `v1=${signV1(s, timestamp, rawBody)}`).join(',');

export const newFulfilmentSecret = (): string => `svcsec_${randomBytes(16).toString('hex')}`;
export const newWebhookSecret = (): string => `whsec_${randomBytes(16).toString('hex')}`;
