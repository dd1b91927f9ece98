import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

/** GCM's 96-bit nonce, random per sealed value. */
const IV_BYTES = 12;

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

  /** Seals under a random nonce: the same value sealed twice gives two ciphertexts. */
  seal(plain: string | Buffer): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyObject, iv);
    // GCM is a stream mode: `final` adds no bytes, it only computes the tag
    const body = cipher.update(plain);
    cipher.final();
    return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
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
