import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signature check for calls from the service (Authentication point 4 of the spec):
 * `X-SVC-Timestamp` is Unix milliseconds, digits only, within `toleranceMs` (300000) of now;
 * `X-SVC-Signature` holds comma-separated `scheme=value` pairs, only `v1` entries count, and a
 * `v1` value is `hex(hmac_sha256(secret, timestamp + "." + raw_body))` over the body bytes as
 * received. Any configured secret may match (two during a rotation). Compared in constant time.
 *
 * The kit's own verifier, with the same call shape as the SDK's `verifySignature`.
 */

export const DEFAULT_TOLERANCE_MS = 300_000;

export interface VerifyOptions {
  /** Maximum |now - timestamp| in ms; the spec's 300000 by default. */
  toleranceMs?: number;
  /** Unix ms; `Date.now` by default. */
  now?: () => number;
}

export type VerifyFailure =
  | 'missing_timestamp'
  | 'invalid_timestamp'
  | 'stale_timestamp'
  | 'missing_signature'
  | 'no_v1_signature'
  | 'signature_mismatch'
  | 'no_secret';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure };

type HeaderBag = Record<string, string | string[] | undefined>;

const header = (headers: HeaderBag, name: string): string | undefined => {
  const direct = headers[name] ?? headers[name.toLowerCase()];
  let value = direct;
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    value = key === undefined ? undefined : headers[key];
  }
  // a repeated header is ambiguous: refuse it rather than pick one
  if (Array.isArray(value)) return value.length === 1 ? value[0] : '\u0000';
  return value;
};

const HEX64 = /^[0-9a-f]{64}$/;

export const verifySignature = (
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secrets: readonly string[],
  options: VerifyOptions = {},
): VerifyResult => {
  const toleranceMs = options.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  const now = options.now ?? Date.now;
  const timestamp = header(headers, 'x-svc-timestamp');
  if (timestamp === undefined || timestamp === '') return { ok: false, reason: 'missing_timestamp' };
  // digits only; 16 digits is far beyond any real Unix ms value
  if (!/^[0-9]{1,16}$/.test(timestamp)) return { ok: false, reason: 'invalid_timestamp' };
  const ts = Number(timestamp);
  if (Math.abs(now() - ts) > toleranceMs) return { ok: false, reason: 'stale_timestamp' };
  const signature = header(headers, 'x-svc-signature');
  if (signature === undefined || signature.trim() === '') return { ok: false, reason: 'missing_signature' };
  const candidates: Buffer[] = [];
  for (const entry of signature.split(',')) {
    const eq = entry.indexOf('=');
    if (eq < 0) continue;
    const scheme = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1).trim();
    if (scheme !== 'v1' || !HEX64.test(value)) continue; // unknown schemes are ignored
    candidates.push(Buffer.from(value, 'hex'));
  }
  if (candidates.length === 0) return { ok: false, reason: 'no_v1_signature' };
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' };
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
    for (const candidate of candidates) {
      // no early exit: every pair is compared, each in constant time
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  return matched ? { ok: true, timestamp: ts } : { ok: false, reason: 'signature_mismatch' };
};
