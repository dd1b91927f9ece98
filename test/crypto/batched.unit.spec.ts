import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprint, fingerprinter } from '../../src/crypto/fingerprint.js';
import { newSecretKey, SecretBox } from '../../src/crypto/secret-box.js';
import { deriveId, derivedIds } from '../../src/ids.js';

/** Sealing, and the batched forms an upload uses, which give what the one-at-a-time forms give. */
describe('sealing, fingerprints and ids for a batch of keys', () => {
  const key = newSecretKey();

  it('seal seals under a fresh nonce each time, and opens with its key only', () => {
    const box = new SecretBox(key);
    const values = ['KEY-1', 'KEY-1', 'ключ-ü', Buffer.from([0x89, 0x50, 0x4e, 0x47])];
    const sealed = values.map((v) => box.seal(v));
    expect(sealed.map((s, i) => (i === 3 ? box.openBytes(s) : box.open(s)))).toEqual(values);
    for (const s of sealed) expect(s).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/);
    // the same value twice: two nonces, two ciphertexts
    expect(new Set(sealed.map((s) => s.split('.')[1])).size).toBe(4);
    expect(sealed[0]).not.toBe(sealed[1]);
    expect(() => new SecretBox(newSecretKey()).open(sealed[0]!)).toThrow();
  });

  it('a fingerprinter gives the keyed hash fingerprint gives, item by item', () => {
    const of = fingerprinter(key);
    // the first 128 bits of the HMAC, base64url
    const expected = createHmac('sha256', Buffer.from(key, 'hex'))
      .update('text\0')
      .update('KEY-1')
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    expect(expected).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(of('text', 'KEY-1')).toBe(expected);
    expect(fingerprint(key, 'text', 'KEY-1')).toBe(expected);
    expect(of('file', Buffer.from('KEY-1'))).toBe(fingerprint(key, 'file', Buffer.from('KEY-1')));
    expect(of('file', 'KEY-1')).not.toBe(expected);
  });

  it('derivedIds gives the ids deriveId gave, hashing the base once', () => {
    // ids a first run wrote before this form existed: a run after a crash must meet them
    const base = '01JH0000000000000000000000';
    const ids = derivedIds(base, 'offer-1');
    expect([0, 1, 999].map(ids)).toEqual([
      '01JH000000SHT5QGC60000CNTQ',
      '01JH000000SHT5QGC60001CNTQ',
      '01JH000000SHT5QGC600Z7CNTQ',
    ]);
    expect(deriveId(base, 999, 'offer-1')).toBe('01JH000000SHT5QGC600Z7CNTQ');
    expect(derivedIds(base)(5)).toBe('01JH000000SHT5QGC60005JEBT');
  });
});
