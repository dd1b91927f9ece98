import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  hash,
  hkdfSync,
  type KeyObject,
  randomBytes,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import { type EntrySigner, type EntryVerifier, type SignedHeadClaim, signedHeadText } from '../domain/ledger-chain.js';

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
  /** The exact text signed (its UTF-8 bytes): canonical JSON, see `signedHeadText`. */
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
  /** Signs a head of the ledger (svc-ledger-checkpoint/2) with this key. */
  signHead(claim: Omit<SignedHeadClaim, 'key_id'>): SignedCheckpoint;
  /** Signs a text with this key: Ed25519, hex. */
  sign(text: string): string;
  /** This key's seal over a text and its signature (`sealOf`). */
  seal(text: string, signatureHex: string): string;
}

/**
 * A seal says "an instance holding this signing key made or verified this signature over
 * this text": HMAC-SHA-256 under a key derived one way from the signing key's seed, over the
 * signature and the text, its first 128 bits in base64url. Another instance of the service
 * holds the same seed, so it accepts a sealed signature for the cost of an HMAC (about a
 * microsecond) instead of an Ed25519 verification (about 60): forging a seal takes the seed,
 * which forges signatures anyway. Whoever holds only the public key (an auditor, `ledger
 * verify`, the witness) ignores seals and verifies every signature.
 */
const sealOf = (sealKey: KeyObject, text: string, signatureHex: string): string =>
  createHmac('sha256', sealKey).update(signatureHex).update('\n').update(text).digest().toString('base64url', 0, 16);

const sealKeyOf = (seed: Buffer): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(0), 'svc ledger entry seal', 32)));

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
  const sealKey = sealKeyOf(seed);
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
    signHead: (claim) => {
      const signed = signedHeadText({ ...claim, key_id: keyId });
      return {
        algorithm: 'ed25519',
        key_id: keyId,
        signed,
        signature: sign(null, Buffer.from(signed, 'utf8'), privateKey).toString('hex'),
      };
    },
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('hex'),
    seal: (text, signatureHex) => sealOf(sealKey, text, signatureHex),
  };
};

const publicKeyObject = (publicKeyHex: string): KeyObject =>
  createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });

/** A public key the ledger signs or signed with, as /.well-known/svc-ledger-signing-key lists it. */
export interface PublishedKey {
  key_id: string;
  /** The raw 32-byte Ed25519 public key, hex. */
  public_key: string;
  public_key_pem: string;
  /** `current` signs what is written now; a `retired` key signed entries and checkpoints before a rotation. */
  status: 'current' | 'retired';
}

export const publishedKey = (publicKeyHex: string, status: PublishedKey['status']): PublishedKey => ({
  key_id: keyIdOf(publicKeyHex),
  public_key: publicKeyHex,
  public_key_pem: String(publicKeyObject(publicKeyHex).export({ format: 'pem', type: 'spki' })),
  status,
});

/** Signatures verified (or made) lately, by signature: an entry read again costs a comparison, not a verification. */
const MEMO_LIMIT = 20_000;

/**
 * Checks entry signatures against a set of public keys, remembering the last 20,000 it
 * verified or that `remember` was told of (those its own key made): an entry is checked
 * once per process, when it is first read, and an entry this process signed not at all.
 * The memory holds the exact text signed, so a changed entry (another text) is checked
 * afresh and fails. With the seal of a key it holds the seed of (`sealers`, an instance of
 * the service), a signature whose seal holds is taken as verified: what another instance
 * wrote costs an HMAC, not an Ed25519 verification. A seal that does not hold (absent,
 * changed, or over another text) leaves the signature to be verified.
 */
export class LedgerKeyring implements EntryVerifier {
  private readonly keys = new Map<string, KeyObject>();
  private readonly memo = new Map<string, string>();
  /** Signatures checked with Ed25519 (the memory missed): for the metrics and the benchmark. */
  verified = 0;
  /** Signatures taken as verified by their seal. */
  sealed = 0;

  constructor(
    readonly published: readonly PublishedKey[],
    private readonly sealers: ReadonlyMap<string, (text: string, signatureHex: string) => string> = new Map(),
  ) {
    for (const k of published) this.keys.set(k.key_id, publicKeyObject(k.public_key));
  }

  verify(keyId: string, text: string, signatureHex: string, seal?: string): boolean | 'unknown' {
    const key = this.keys.get(keyId);
    if (!key) return 'unknown';
    if (this.memo.get(signatureHex) === text) return true;
    if (!/^[0-9a-f]{128}$/.test(signatureHex)) return false;
    const sealer = this.sealers.get(keyId);
    if (seal !== undefined && sealer && sameSeal(sealer(text, signatureHex), seal)) {
      this.sealed++;
      this.remember(text, signatureHex);
      return true;
    }
    this.verified++;
    const ok = verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signatureHex, 'hex'));
    if (ok) this.remember(text, signatureHex);
    return ok;
  }

  remember(text: string, signatureHex: string): void {
    if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(signatureHex, text);
  }
}

const sameSeal = (expected: string, given: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The ledger's keys: the current one signs entries (and remembers what it signed), every published one verifies. */
export interface LedgerKeys {
  current: LedgerSigningKey;
  keyring: LedgerKeyring;
  signer: EntrySigner;
}

/**
 * The current signing key from its seed, and the keys it retired (their public halves, from
 * SVC_LEDGER_RETIRED_KEYS): entries and checkpoints signed before a rotation keep verifying,
 * and every key ever used stays published.
 */
export const ledgerKeys = (seedHex: string, retiredPublicKeys: readonly string[] = []): LedgerKeys => {
  const current = ledgerSigningKey(seedHex);
  const retired = [...new Set(retiredPublicKeys.map((k) => k.toLowerCase()))].filter((k) => k !== current.publicKey);
  const keyring = new LedgerKeyring(
    [publishedKey(current.publicKey, 'current'), ...retired.map((k) => publishedKey(k, 'retired'))],
    new Map([[current.keyId, current.seal]]),
  );
  return {
    current,
    keyring,
    signer: {
      keyId: current.keyId,
      sign: (text) => {
        const signature = current.sign(text);
        keyring.remember(text, signature);
        return signature;
      },
      seal: current.seal,
    },
  };
};

/** Whether `signatureHex` is the Ed25519 signature of `text` under the raw public key `publicKeyHex`. */
export const verifyCheckpointSignature = (publicKeyHex: string, text: string, signatureHex: string): boolean => {
  // Buffer.from(…, 'hex') stops at the first non-hex character: the text is checked whole first
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  return verify(null, Buffer.from(text, 'utf8'), publicKeyObject(publicKeyHex), Buffer.from(signatureHex, 'hex'));
};
