import { createPublicKey, hash, type KeyObject, verify } from 'node:crypto';

/** A public key of the ledger, as /.well-known/svc-ledger-signing-key lists it. */
export interface LedgerPublicKey {
  /** The first 8 bytes of SHA-256 over the raw key, hex: what signed texts name as `key_id`. */
  keyId: string;
  /** The raw 32-byte Ed25519 public key, hex. */
  publicKey: string;
}

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export const keyIdOf = (publicKeyHex: string): string =>
  hash('sha256', Buffer.from(publicKeyHex, 'hex'), 'hex').slice(0, 16);

const objects = new Map<string, KeyObject>();

const keyObject = (publicKeyHex: string): KeyObject => {
  let key = objects.get(publicKeyHex);
  if (!key) {
    key = createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    if (objects.size >= 64) objects.delete(objects.keys().next().value!);
    objects.set(publicKeyHex, key);
  }
  return key;
};

/** Whether `signatureHex` is the Ed25519 signature of the UTF-8 bytes of `text` under `publicKeyHex`. */
export const verifyEd25519 = (publicKeyHex: string, text: string, signatureHex: string): boolean => {
  // Buffer.from(…, 'hex') stops at the first non-hex character: the text is checked whole first
  if (!/^[0-9a-f]{64}$/i.test(publicKeyHex) || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  return verify(
    null,
    Buffer.from(text, 'utf8'),
    keyObject(publicKeyHex.toLowerCase()),
    Buffer.from(signatureHex, 'hex'),
  );
};

const rawOfPem = (pem: string): string =>
  createPublicKey(pem).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).toString('hex');

const fromHex = (hex: string): LedgerPublicKey => ({ keyId: keyIdOf(hex.toLowerCase()), publicKey: hex.toLowerCase() });

/**
 * The ledger's public keys from what a verifier was given: the JSON of
 * GET /.well-known/svc-ledger-signing-key (every key in `keys`, or the one at the top), a PEM
 * (SPKI) public key, or a raw key in hex; several PEMs or hex keys may follow one another.
 * Throws, saying what it found, when there is none.
 */
export const readPublicKeys = (text: string): LedgerPublicKey[] => {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const doc = JSON.parse(trimmed) as { public_key?: unknown; keys?: { public_key?: unknown }[] };
    const listed = Array.isArray(doc.keys) ? doc.keys.map((k) => k.public_key) : [doc.public_key];
    const keys = listed.filter((k): k is string => typeof k === 'string' && /^[0-9a-f]{64}$/i.test(k)).map(fromHex);
    if (keys.length === 0) throw new Error('the JSON names no public_key of 64 hex characters');
    return keys;
  }
  const pems = trimmed.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g);
  if (pems) return pems.map((pem) => fromHex(rawOfPem(pem)));
  const hexes = trimmed.split(/[\s,]+/).filter(Boolean);
  if (hexes.length > 0 && hexes.every((h) => /^[0-9a-f]{64}$/i.test(h))) return hexes.map(fromHex);
  throw new Error(
    'not a public key: expected the JSON of /.well-known/svc-ledger-signing-key, a PEM public key or 64 hex characters',
  );
};

/** The well-known document's address at a service's origin. */
export const LEDGER_KEYS_PATH = '/.well-known/svc-ledger-signing-key';

/**
 * The public keys at `source`: an http(s) URL (a service's origin, or the document's own
 * address) is fetched, anything else is read as a file.
 */
export const loadPublicKeys = async (
  source: string,
  read: (file: string) => Promise<string>,
  fetcher: typeof fetch = fetch,
): Promise<LedgerPublicKey[]> => {
  if (/^https?:\/\//i.test(source)) {
    const url = new URL(source);
    if (url.pathname === '/' || url.pathname === '') url.pathname = LEDGER_KEYS_PATH;
    const answer = await fetcher(url);
    if (!answer.ok) throw new Error(`GET ${url.href} answered ${answer.status}`);
    return readPublicKeys(await answer.text());
  }
  return readPublicKeys(await read(source));
};
