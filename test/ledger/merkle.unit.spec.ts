import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  inclusionPath,
  leafHash,
  rootOf,
  verifyConsistencyProof,
  verifyInclusionPath,
} from '../../src/sdk/ledger/merkle.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (h: string) => Buffer.from(h, 'hex');

// RFC 9162 section 2.1, written again as the text reads, on arrays: the reference the
// implementation is held to
const H = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const k = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
const MTH = (D: Buffer[]): Buffer =>
  D.length === 0
    ? H()
    : D.length === 1
      ? H(Buffer.from([0]), D[0]!)
      : H(Buffer.from([1]), MTH(D.slice(0, k(D.length))), MTH(D.slice(k(D.length))));
const PATH = (m: number, D: Buffer[]): Buffer[] => {
  if (D.length === 1) return [];
  const kk = k(D.length);
  return m < kk ? [...PATH(m, D.slice(0, kk)), MTH(D.slice(kk))] : [...PATH(m - kk, D.slice(kk)), MTH(D.slice(0, kk))];
};
const SUBPROOF = (m: number, D: Buffer[], b: boolean): Buffer[] => {
  if (m === D.length) return b ? [] : [MTH(D)];
  const kk = k(D.length);
  return m <= kk
    ? [...SUBPROOF(m, D.slice(0, kk), b), MTH(D.slice(kk))]
    : [...SUBPROOF(m - kk, D.slice(kk), false), MTH(D.slice(0, kk))];
};
const PROOF = (m: number, D: Buffer[]) => SUBPROOF(m, D, true);

/** The inputs of Certificate Transparency's reference tree, and its published heads and proofs. */
const CT = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  unhex,
);
const CT_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
/** [leaf index (from 0), tree size, path] */
const CT_INCLUSION: [number, number, string[]][] = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
/** [first size, second size, proof] */
const CT_CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];

/** Every way of changing one byte of one hash in a list: each must fail. */
const flipped = (list: Buffer[]) =>
  list.flatMap((h, i) =>
    [0, 31].map((byte) => list.map((x, j) => (j === i ? Buffer.from(x.map((v, b) => (b === byte ? v ^ 1 : v))) : x))),
  );

describe('the RFC 9162 Merkle tree', () => {
  const ctLeaves = CT.map((d) => leafHash(d));

  it("gives Certificate Transparency's reference roots for trees of 0 to 8 leaves", () => {
    for (let n = 0; n <= 8; n++) expect(hex(rootOf(ctLeaves.slice(0, n))), `size ${n}`).toBe(CT_ROOTS[n]);
  });

  it('gives and accepts the reference inclusion and consistency proofs, and refuses them against another root', () => {
    for (const [index, size, path] of CT_INCLUSION) {
      expect(inclusionPath(index, ctLeaves.slice(0, size)).map(hex)).toEqual(path);
      expect(verifyInclusionPath(index, size, ctLeaves[index]!, path.map(unhex), unhex(CT_ROOTS[size]!))).toBe(true);
      expect(verifyInclusionPath(index, size, ctLeaves[index]!, path.map(unhex), unhex(CT_ROOTS[0]!))).toBe(false);
    }
    for (const [first, second, proof] of CT_CONSISTENCY) {
      expect(consistencyProof(first, ctLeaves.slice(0, second)).map(hex)).toEqual(proof);
      expect(
        verifyConsistencyProof(first, second, unhex(CT_ROOTS[first]!), unhex(CT_ROOTS[second]!), proof.map(unhex)),
      ).toBe(true);
    }
  });

  it('for every tree of 1 to 40 leaves: the root is MTH, every path is PATH and verifies, and any change to it fails', () => {
    for (let n = 1; n <= 40; n++) {
      const data = Array.from({ length: n }, (_, i) => Buffer.from(`entry ${i} of ${n}`));
      const leaves = data.map((d) => leafHash(d));
      const root = rootOf(leaves);
      expect(hex(root)).toBe(hex(MTH(data)));
      for (let m = 0; m < n; m++) {
        const path = inclusionPath(m, leaves);
        expect(path.map(hex), `PATH(${m}, ${n})`).toEqual(PATH(m, data).map(hex));
        expect(verifyInclusionPath(m, n, leaves[m]!, path, root), `${m} of ${n}`).toBe(true);
        // another leaf, place, size, root, a path a hash short or long, or any hash of it changed
        if (n > 1) expect(verifyInclusionPath((m + 1) % n, n, leaves[m]!, path, root)).toBe(false);
        expect(verifyInclusionPath(m, n, leafHash(Buffer.from('forged')), path, root)).toBe(false);
        // (a size is bound to its root by the signed head, not by the path: the root of a larger tree fails)
        expect(verifyInclusionPath(m, n + 1, leaves[m]!, path, rootOf([...leaves, leafHash('next')]))).toBe(false);
        if (n > 1) expect(verifyInclusionPath(m, n, leaves[m]!, path, rootOf(leaves.slice(0, n - 1)))).toBe(false);
        if (path.length > 0) expect(verifyInclusionPath(m, n, leaves[m]!, path.slice(1), root)).toBe(false);
        expect(verifyInclusionPath(m, n, leaves[m]!, [...path, root], root)).toBe(false);
        for (const changed of flipped(path)) expect(verifyInclusionPath(m, n, leaves[m]!, changed, root)).toBe(false);
      }
      expect(verifyInclusionPath(n, n, leaves[0]!, [], root)).toBe(false);
      expect(verifyInclusionPath(-1, n, leaves[0]!, [], root)).toBe(false);
    }
  });

  it('for every pair of trees of up to 40 leaves: the proof is PROOF and verifies, and any change to it or the roots fails', () => {
    for (let n = 1; n <= 40; n++) {
      const data = Array.from({ length: n }, (_, i) => Buffer.from([i, n]));
      const leaves = data.map((d) => leafHash(d));
      const roots = Array.from({ length: n + 1 }, (_, m) => rootOf(leaves.slice(0, m)));
      for (let m = 1; m <= n; m++) {
        expect(hex(roots[m]!)).toBe(hex(MTH(data.slice(0, m))));
        const proof = consistencyProof(m, leaves);
        expect(proof.map(hex), `PROOF(${m}, ${n})`).toEqual(m === n ? [] : PROOF(m, data).map(hex));
        expect(verifyConsistencyProof(m, n, roots[m]!, roots[n]!, proof), `${m} -> ${n}`).toBe(true);
        if (m === n) continue;
        // a rewritten first tree (its last leaf changed), a second root of another tree, swapped sizes, changed hashes
        const rewritten = rootOf([...leaves.slice(0, m - 1), leafHash(Buffer.from('rewritten'))]);
        expect(verifyConsistencyProof(m, n, rewritten, roots[n]!, proof)).toBe(false);
        expect(verifyConsistencyProof(m, n, roots[m]!, roots[n - 1]!, proof)).toBe(false);
        expect(verifyConsistencyProof(n, m, roots[n]!, roots[m]!, proof)).toBe(false);
        expect(verifyConsistencyProof(m, n, roots[m]!, roots[n]!, [])).toBe(false);
        if (proof.length > 1)
          expect(verifyConsistencyProof(m, n, roots[m]!, roots[n]!, proof.slice(0, -1))).toBe(false);
        for (const changed of flipped(proof))
          expect(verifyConsistencyProof(m, n, roots[m]!, roots[n]!, changed)).toBe(false);
      }
      // from the empty tree anything follows; to a smaller one nothing does
      expect(verifyConsistencyProof(0, n, roots[0]!, roots[n]!, [])).toBe(true);
      expect(verifyConsistencyProof(n, n, roots[n]!, roots[n]!, [])).toBe(true);
      if (n > 1) expect(verifyConsistencyProof(n, n, roots[n]!, roots[n - 1]!, [])).toBe(false);
    }
  });
});
