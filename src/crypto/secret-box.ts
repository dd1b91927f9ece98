import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

/** GCM's 96-bit nonce, random per sealed value. */
const IV_BYTES = 12;
/** A nonce in base64url, without padding. */
const IV_TEXT = 16;

/**
 * AES-256-GCM under SVC_SECRET_KEY for everything stored that must be read back in clear
 * (signing secrets, key values). Format: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export class SecretBox {
  private readonly key: Buffer;
  /** The key as a KeyObject: a cipher made from it does not take in the key's bytes again. */
  private readonly keyObject: KeyObject;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) throw new Error('secret key must be 32 bytes');
    this.keyObject = createSecretKey(this.key);
  }

  seal(plain: string | Buffer): string {
    return this.sealMany([plain])[0]!;
  }

  /**
   * Seals each value under its own random nonce, the nonces drawn in one call: drawing 12
   * bytes costs about as much as drawing 12,000, and an upload seals up to 1,000 keys. The
   * nonces are encoded in one call too: 12 bytes are exactly 16 base64url characters.
   */
  sealMany(plains: readonly (string | Buffer)[]): string[] {
    const ivs = randomBytes(IV_BYTES * plains.length);
    const ivText = ivs.toString('base64url');
    return plains.map((plain, i) => {
      const cipher = createCipheriv('aes-256-gcm', this.keyObject, ivs.subarray(i * IV_BYTES, (i + 1) * IV_BYTES));
      // GCM is a stream mode: `final` adds no bytes, it only computes the tag
      const body = cipher.update(plain);
      cipher.final();
      return `v1.${ivText.slice(i * IV_TEXT, (i + 1) * IV_TEXT)}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
    });
  }

  openBytes(sealed: string): Buffer {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  }

  open(sealed: string): string {
    return this.openBytes(sealed).toString('utf8');
  }
}

export const newSecretKey = (): string => randomBytes(32).toString('hex');
