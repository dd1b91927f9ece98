import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowingList } from '../../src/domain/growing-list.js';
import { VersionedMap } from '../../src/domain/versioned-map.js';

/** A batch of changes: a value sets the key, undefined deletes it. Few keys, so they repeat. */
const batch = fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.option(fc.nat(99), { nil: undefined })), {
  maxLength: 12,
});

const apply = (map: ReadonlyMap<number, number>, changes: [number, number | undefined][]) => {
  const next = new Map(map);
  for (const [k, v] of changes)
    if (v === undefined) next.delete(k);
    else next.set(k, v);
  return next;
};

// in no promised order
const sorted = (entries: Iterable<[number, number]>) => [...entries].sort(([a], [b]) => a - b);
const contents = (m: VersionedMap<number, number>) => ({ size: m.size, entries: sorted(m.entries()) });

describe('VersionedMap and GrowingList (properties)', () => {
  it('a versioned map holds what a Map given the same changes would, and every version stays as it was', () => {
    fc.assert(
      fc.property(
        // each step changes the newest version or an older one (a second branch from it)
        fc.array(fc.tuple(fc.nat(), batch), { maxLength: 40 }),
        (steps) => {
          const versions: { layered: VersionedMap<number, number>; model: Map<number, number> }[] = [
            { layered: VersionedMap.empty(), model: new Map() },
          ];
          const seen = versions.map((v) => contents(v.layered));
          for (const [pick, changes] of steps) {
            // mostly the newest, as a stream folds; sometimes an older one
            const from = versions[pick % 4 === 0 ? pick % versions.length : versions.length - 1]!;
            const layered = from.layered.with(changes);
            const model = apply(from.model, changes);
            expect(contents(layered)).toEqual({ size: model.size, entries: sorted(model.entries()) });
            for (let k = 0; k <= 31; k++) {
              expect(layered.get(k)).toBe(model.get(k));
              expect(layered.has(k)).toBe(model.has(k));
            }
            versions.push({ layered, model });
            seen.push(contents(layered));
          }
          versions.forEach((v, i) => expect(contents(v.layered)).toEqual(seen[i]));
        },
      ),
    );
  });

  it('a growing list appended to from any version holds exactly its own values, and no version changes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.array(fc.nat(99), { maxLength: 5 })), { maxLength: 30 }), (steps) => {
        const versions: { list: GrowingList<number>; model: number[] }[] = [{ list: GrowingList.empty(), model: [] }];
        for (const [pick, values] of steps) {
          const from = versions[pick % 3 === 0 ? pick % versions.length : versions.length - 1]!;
          versions.push({ list: from.list.concat(values), model: [...from.model, ...values] });
        }
        for (const { list, model } of versions) {
          expect([...list]).toEqual(model);
          expect(list.length).toBe(model.length);
          expect(list.at(model.length)).toBeUndefined();
          expect(list.at(-1)).toBeUndefined();
        }
      }),
    );
  });

  it('writes only what changed into the newest version, and starts a lineage of its own for a branch or a long history', () => {
    type Inside = { lineage: { entries: Map<number, unknown>; written: number } };
    const lineageOf = (m: VersionedMap<number, number>) => (m as unknown as Inside).lineage;
    // 30 uploads of 1,000 keys: one lineage, 1,000 entries written per upload
    let map = VersionedMap.empty<number, number>();
    const first = lineageOf(map);
    for (let u = 0; u < 30; u++) map = map.with(Array.from({ length: 1000 }, (_, i) => [u * 1000 + i, i] as const));
    expect(map.size).toBe(30_000);
    expect(lineageOf(map)).toBe(first);
    expect(first.written).toBe(30_000);
    // a change to an older version does not write into the lineage newer ones read
    const older = map;
    map = map.with([[0, 7]]);
    const branch = older.with([[0, 8]]);
    expect(lineageOf(branch)).not.toBe(first);
    expect([map.get(0), branch.get(0), older.get(0)]).toEqual([7, 8, 0]);
    // statuses moved one key at a time: the history is folded away once it passes twice the live size
    for (let k = 0; k < 70_000; k++) map = map.with([[k % 30_000, k]]);
    expect(lineageOf(map)).not.toBe(first);
    expect(lineageOf(map).written).toBeLessThanOrEqual(2 * 30_000 + 1024 + 1);
    expect(map.size).toBe(30_000);
    expect(map.get(29_999)).toBe(59_999);
  });
});
