import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 (Certificate Transparency 2.0), section 2.1, over a supplier's
 * ledger: its leaves are the entries' signed texts, in order. Written from the RFC's
 * definitions (MTH, PATH, PROOF/SUBPROOF and the verification algorithms of 2.1.3.2 and
 * 2.1.4.2), on 32-byte SHA-256 hashes; checked against the reference roots and proofs of the
 * Certificate Transparency implementation and exhaustively on small trees
 * (test/ledger/merkle.unit.spec.ts).
 */

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

/** MTH({d}) = SHA-256(0x00 || d): a leaf's hash. */
export const leafHash = (leaf: Uint8Array | string): Buffer =>
  sha256(LEAF, typeof leaf === 'string' ? Buffer.from(leaf, 'utf8') : leaf);

/** SHA-256(0x01 || left || right): an interior node's hash. */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256(NODE, left, right);

/** The largest power of two smaller than n (n > 1): where RFC 9162 splits a tree of n leaves. */
const split = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/** MTH(D[n]) over leaf hashes: the empty tree's is SHA-256 of nothing. */
export const rootOf = (leaves: readonly Uint8Array[]): Buffer => {
  if (leaves.length === 0) return sha256();
  return subtreeRoot(leaves, 0, leaves.length);
};

const subtreeRoot = (leaves: readonly Uint8Array[], from: number, to: number): Buffer => {
  const n = to - from;
  if (n === 1) return Buffer.from(leaves[from]!);
  const k = split(n);
  return nodeHash(subtreeRoot(leaves, from, from + k), subtreeRoot(leaves, from + k, to));
};

/** PATH(m, D[n]): the audit path of leaf m in the tree of `leaves`, leaf-side first. */
export const inclusionPath = (m: number, leaves: readonly Uint8Array[]): Buffer[] => {
  if (!Number.isInteger(m) || m < 0 || m >= leaves.length)
    throw new RangeError(`no leaf ${m} in a tree of ${leaves.length}`);
  const path: Buffer[] = [];
  const walk = (m: number, from: number, to: number) => {
    const n = to - from;
    if (n === 1) return;
    const k = split(n);
    if (m < k) {
      walk(m, from, from + k);
      path.push(subtreeRoot(leaves, from + k, to));
    } else {
      walk(m - k, from + k, to);
      path.push(subtreeRoot(leaves, from, from + k));
    }
  };
  walk(m, 0, leaves.length);
  return path;
};

/** PROOF(m, D[n]): the consistency proof between the tree's first m leaves and all of them. */
export const consistencyProof = (m: number, leaves: readonly Uint8Array[]): Buffer[] => {
  const n = leaves.length;
  if (!Number.isInteger(m) || m < 0 || m > n) throw new RangeError(`no tree of ${m} within one of ${n}`);
  if (m === 0 || m === n) return [];
  const proof: Buffer[] = [];
  // SUBPROOF(m, D[from:to], b)
  const sub = (m: number, from: number, to: number, b: boolean) => {
    const n = to - from;
    if (m === n) {
      if (!b) proof.push(subtreeRoot(leaves, from, to));
      return;
    }
    const k = split(n);
    if (m <= k) {
      sub(m, from, from + k, b);
      proof.push(subtreeRoot(leaves, from + k, to));
    } else {
      sub(m - k, from + k, to, false);
      proof.push(subtreeRoot(leaves, from, from + k));
    }
  };
  sub(m, 0, n, true);
  return proof;
};

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/**
 * RFC 9162 2.1.3.2: whether `path` proves the leaf of hash `leaf` at `index` in a tree of
 * `size` leaves whose root is `root`.
 */
export const verifyInclusionPath = (
  index: number,
  size: number,
  leaf: Uint8Array,
  path: readonly Uint8Array[],
  root: Uint8Array,
): boolean => {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else r = nodeHash(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(r, root);
};

/**
 * RFC 9162 2.1.4.2: whether `proof` shows the tree of `first` leaves with root `firstRoot`
 * to be the first `first` leaves of the tree of `second` leaves with root `secondRoot`.
 */
export const verifyConsistencyProof = (
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean => {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && equal(firstRoot, secondRoot);
  // every tree begins with the empty one
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  // when first is an exact power of two, the first tree's root begins the path
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else sr = nodeHash(sr, c);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(fr, firstRoot) && equal(sr, secondRoot);
};
