import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowingList } from '../../src/domain/growing-list.js';
import { LayeredMap } from '../../src/domain/layered-map.js';

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
const contents = (m: LayeredMap<number, number>) => ({ size: m.size, entries: sorted(m.entries()) });

describe('LayeredMap and GrowingList (properties)', () => {
  it('a layered map holds what a Map given the same changes would, and every version stays as it was', () => {
    fc.assert(
      fc.property(
        // each step changes the newest version or an older one (a second branch from it)
        fc.array(fc.tuple(fc.nat(), batch), { maxLength: 40 }),
        (steps) => {
          const versions: { layered: LayeredMap<number, number>; model: Map<number, number> }[] = [
            { layered: LayeredMap.empty(), model: new Map() },
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

  it('rebuilds its base once the copying reaches its size, so one change copies far less than the map', () => {
    // 30 uploads of 1,000 keys: each copy is the overlay, a rebuild now and then
    let map = LayeredMap.empty<number, number>();
    const sizes: number[] = [];
    for (let u = 0; u < 30; u++) {
      map = map.with(Array.from({ length: 1000 }, (_, i) => [u * 1000 + i, i] as const));
      sizes.push((map as unknown as { overlay: Map<number, number> }).overlay.size);
    }
    expect(map.size).toBe(30_000);
    // the overlay grows by an upload and is folded into the base before it reaches the base's size
    expect(sizes.slice(0, 6)).toEqual([0, 0, 1000, 0, 1000, 2000]);
    expect(Math.max(...sizes)).toBeLessThan(10_000);
  });
});
