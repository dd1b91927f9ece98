import {
  createPrivateKey,
  createPublicKey,
  hash,
  hkdfSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { type CheckpointClaim, checkpointText } from '../domain/ledger-chain.js';

/** DER prefixes that wrap a raw 32-byte Ed25519 seed (PKCS #8) and public key (SPKI). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A new SVC_LEDGER_SIGNING_KEY: an Ed25519 seed, 64 hex characters. */
export const newLedgerSigningKey = (): string => randomBytes(32).toString('hex');

/**
 * The signing key of an embedding given none of its own (the tests' harness, the
 * simulation): derived one way from its secret key, so it stays the same across restarts.
 * `serve` always passes the setting or the data dir's key.
 */
export const derivedLedgerSigningKey = (secretKeyHex: string): string =>
  Buffer.from(
    hkdfSync('sha256', Buffer.from(secretKeyHex, 'hex'), Buffer.alloc(0), 'svc ledger signing key', 32),
  ).toString('hex');

/** A public key's id: the first 8 bytes of sha256 over its 32 raw bytes, hex. */
export const keyIdOf = (publicKeyHex: string): string =>
  hash('sha256', Buffer.from(publicKeyHex, 'hex'), 'hex').slice(0, 16);

/** A checkpoint as the API, the statements and the `ledger.checkpoint` webhook carry it. */
export interface SignedCheckpoint {
  algorithm: 'ed25519';
  key_id: string;
  /** The exact text signed (its UTF-8 bytes): canonical JSON, see `checkpointText`. */
  signed: string;
  /** The Ed25519 signature over `signed`, hex (64 bytes). */
  signature: string;
}

export interface LedgerSigningKey {
  readonly keyId: string;
  /** The raw 32-byte public key, hex. */
  readonly publicKey: string;
  /** The same key as SPKI PEM, for OpenSSL and most libraries. */
  readonly publicKeyPem: string;
  signCheckpoint(claim: Omit<CheckpointClaim, 'keyId'>): SignedCheckpoint;
}

/**
 * The ledger's signing key from its seed. The seed stays inside a KeyObject, which prints
 * and serialises as nothing: a log line or an error that reaches it shows no key.
 */
export const ledgerSigningKey = (seedHex: string): LedgerSigningKey => {
  const seed = Buffer.from(seedHex, 'hex');
  if (seed.length !== 32) throw new Error('the ledger signing key must be 32 bytes (64 hex characters)');
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  seed.fill(0);
  const publicKeyObject = createPublicKey(privateKey);
  const publicKey = publicKeyObject
    .export({ format: 'der', type: 'spki' })
    .subarray(SPKI_PREFIX.length)
    .toString('hex');
  const keyId = keyIdOf(publicKey);
  return {
    keyId,
    publicKey,
    publicKeyPem: String(publicKeyObject.export({ format: 'pem', type: 'spki' })),
    signCheckpoint: (claim) => {
      const signed = checkpointText({ ...claim, keyId });
      return {
        algorithm: 'ed25519',
        key_id: keyId,
        signed,
        signature: sign(null, Buffer.from(signed, 'utf8'), privateKey).toString('hex'),
      };
    },
  };
};

/** Whether `signatureHex` is the Ed25519 signature of `text` under the raw public key `publicKeyHex`. */
export const verifyCheckpointSignature = (publicKeyHex: string, text: string, signatureHex: string): boolean => {
  // Buffer.from(…, 'hex') stops at the first non-hex character: the text is checked whole first
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  const key = createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  return verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signatureHex, 'hex'));
};
