import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** Bytes of the HMAC a fingerprint keeps: 128 bits, as HMAC-SHA-256-128 truncates it. */
export const FINGERPRINT_BYTES = 16;

/**
 * A keyed hash of an inventory item's content: equal keys give equal fingerprints, so a
 * key uploaded twice is found, while the fingerprint alone reveals nothing (unlike a
 * plain hash of a short key, which could be guessed offline). The first 128 bits of
 * HMAC-SHA-256, base64url (22 characters): two different keys of one offer share one with
 * a chance of about n^2 / 2^129, and every upload event carries one per key, so its size
 * is what an upload's append and read-back cost (64 hex characters before).
 */
export const fingerprint = (secretKeyHex: string, kind: 'text' | 'file', content: string | Buffer): string =>
  fingerprinter(secretKeyHex)(kind, content);

/** `fingerprint` for many items under one key: the key is read once, not per item. */
export const fingerprinter = (secretKeyHex: string): ((kind: 'text' | 'file', content: string | Buffer) => string) => {
  const key: KeyObject = createSecretKey(Buffer.from(secretKeyHex, 'hex'));
  return (kind, content) =>
    createHmac('sha256', key).update(`${kind}\0`).update(content).digest().toString('base64url', 0, FINGERPRINT_BYTES);
};
