import { createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { SignedCheckpoint } from './checkpoint.js';
import { keyIdOf, verifyEd25519 } from './keys.js';

export const COSIGNATURE_FORMAT = 'svc-ledger-cosignature/1';

/**
 * A witness's statement that it saw a signed head and found it consistent with every head it
 * accepted before: Ed25519 by the witness's own key over `cosignatureText`.
 */
export interface Cosignature {
  /** The witness's raw 32-byte Ed25519 public key, hex; its id is `keyIdOf` it. */
  witness_key: string;
  witness_key_id: string;
  /** ISO 8601 UTC: when the witness cosigned (its own clock). */
  cosigned_at: string;
  /** The service's signed head it cosigns, exactly as it was handed out. */
  checkpoint: SignedCheckpoint;
  /** Ed25519 over the UTF-8 bytes of `cosignatureText`, hex. */
  signature: string;
}

/** The exact text a cosignature covers: the format, when, and the head's signed text, one per line. */
export const cosignatureText = (checkpoint: SignedCheckpoint, cosignedAt: string): string =>
  `${COSIGNATURE_FORMAT}\n${cosignedAt}\n${checkpoint.signed}`;

/** Whether a cosignature's signature is its witness key's over its text (the head itself is checked apart). */
export const verifyCosignature = (c: Cosignature): boolean =>
  typeof c?.witness_key === 'string' &&
  c.witness_key_id === keyIdOf(c.witness_key) &&
  typeof c.cosigned_at === 'string' &&
  typeof c.checkpoint?.signed === 'string' &&
  verifyEd25519(c.witness_key, cosignatureText(c.checkpoint, c.cosigned_at), c.signature);

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX_LENGTH = 12;

/** A witness's own signing key, from its 32-byte seed (hex): what `ledger witness --witness-key` reads. */
export interface WitnessKey {
  publicKey: string;
  keyId: string;
  cosign(checkpoint: SignedCheckpoint, cosignedAt: string): Cosignature;
}

/** A new witness key's seed, hex: keep it, as a file only its owner reads. */
export const newWitnessKey = (): string => randomBytes(32).toString('hex');

export const witnessKey = (seedHex: string): WitnessKey => {
  const seed = Buffer.from(seedHex.trim(), 'hex');
  if (seed.length !== 32) throw new Error('a witness key is a 32-byte Ed25519 seed, 64 hex characters');
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  seed.fill(0);
  const publicKey = createPublicKey(privateKey)
    .export({ format: 'der', type: 'spki' })
    .subarray(SPKI_PREFIX_LENGTH)
    .toString('hex');
  const keyId = keyIdOf(publicKey);
  return {
    publicKey,
    keyId,
    cosign: (checkpoint, cosignedAt) => ({
      witness_key: publicKey,
      witness_key_id: keyId,
      cosigned_at: cosignedAt,
      checkpoint,
      signature: sign(null, Buffer.from(cosignatureText(checkpoint, cosignedAt), 'utf8'), privateKey).toString('hex'),
    }),
  };
};
