import { createHmac } from 'node:crypto';

/**
 * A keyed hash of an inventory item's content: equal keys give equal fingerprints, so a
 * key uploaded twice is found, while the fingerprint alone reveals nothing (unlike a
 * plain hash of a short key, which could be guessed offline).
 */
export const fingerprint = (secretKeyHex: string, kind: 'text' | 'file', content: string | Buffer): string =>
  createHmac('sha256', Buffer.from(secretKeyHex, 'hex')).update(`${kind}\0`).update(content).digest('hex');
