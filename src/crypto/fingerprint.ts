import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * A keyed hash of an inventory item's content: equal keys give equal fingerprints, so a
 * key uploaded twice is found, while the fingerprint alone reveals nothing (unlike a
 * plain hash of a short key, which could be guessed offline).
 */
export const fingerprint = (secretKeyHex: string, kind: 'text' | 'file', content: string | Buffer): string =>
  fingerprinter(secretKeyHex)(kind, content);

/** `fingerprint` for many items under one key: the key is read once, not per item. */
export const fingerprinter = (secretKeyHex: string): ((kind: 'text' | 'file', content: string | Buffer) => string) => {
  const key: KeyObject = createSecretKey(Buffer.from(secretKeyHex, 'hex'));
  return (kind, content) => createHmac('sha256', key).update(`${kind}\0`).update(content).digest('hex');
};
