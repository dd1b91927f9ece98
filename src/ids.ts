import { hash, randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * Random fractions for the ids' random part, from a pool of cryptographic random bytes
 * filled 4 KiB at a time: ulid's own source asks the system for one byte per character
 * (16 calls for every id of a new millisecond).
 */
const pooledRandom = (): (() => number) => {
  const pool = Buffer.alloc(4096);
  let at = pool.length;
  return () => {
    if (at === pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    return pool[at++]! / 256;
  };
};

// The plain `ulid()` re-seeds randomness on every call (~26k ids/s); the monotonic
// factory is several times faster and keeps ids sortable within one millisecond.
const next = monotonicFactory(pooledRandom());

export const newId = (): string => next();

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const base32 = (bytes: Buffer, length: number): string => {
  let out = '';
  for (let i = 0; out.length < length; i++) out += CROCKFORD[bytes[i % bytes.length]! % 32];
  return out;
};

/** A derived id: its base's time (10 characters) and hash (8), then `seq` (4), then the salt's hash (4). */
const HEAD_CHARS = 18;
const SEQ_CHARS = 4;

const seqChars = (seq: number): string => {
  let out = '';
  for (let n = seq, i = 0; i < SEQ_CHARS; i++, n = Math.floor(n / 32)) out = CROCKFORD[n % 32] + out;
  return out;
};

/**
 * An id that follows from another one: the `seq`-th id (below 32^4) an operation makes,
 * optionally told apart by `salt` (the offer it belongs to). The same inputs give the same
 * id on every run, so an operation re-run after a crash (an Idempotency-Key taken over)
 * meets what its first run wrote instead of making it a second time. It keeps the ULID
 * shape and the base's time, and ids of one base sort by `seq`.
 */
export const deriveId = (base: string, seq: number, salt = ''): string => derivedIds(base, salt)(seq);

/** `deriveId` for many ids of one operation: what follows from the base is hashed once. */
export const derivedIds = (base: string, salt = ''): ((seq: number) => string) => {
  const head = `${base.slice(0, 10)}${base32(hash('sha256', `id:${base}`, 'buffer'), HEAD_CHARS - 10)}`;
  const tail = base32(hash('sha256', `salt:${base}:${salt}`, 'buffer'), 4);
  return (seq) => `${head}${seqChars(seq)}${tail}`;
};

/**
 * What every id `derivedIds(base, salt)` makes has in common: its characters but those of
 * `seq`. Things made by one operation can be kept together under it and found again from
 * any of their ids.
 */
export const derivedFamily = (id: string): string => `${id.slice(0, HEAD_CHARS)}${id.slice(HEAD_CHARS + SEQ_CHARS)}`;

/** The `seq` a derived id was made with: its place among its operation's ids. */
export const derivedSeq = (id: string): number =>
  [...id.slice(HEAD_CHARS, HEAD_CHARS + SEQ_CHARS)].reduce((n, c) => n * 32 + CROCKFORD.indexOf(c), 0);
