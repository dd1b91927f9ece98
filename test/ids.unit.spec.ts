import { describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';

describe('newId', () => {
  it('makes distinct ULIDs in ascending order', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws a fresh random part in each new millisecond, from all 32 symbols', () => {
    // the first id of a millisecond has 16 freshly drawn characters (later ones increment it)
    const firsts = new Map<string, string>();
    while (firsts.size < 40) {
      const id = newId();
      if (!firsts.has(id.slice(0, 10))) firsts.set(id.slice(0, 10), id.slice(10));
    }
    const randoms = [...firsts.values()];
    expect(new Set(randoms).size).toBe(randoms.length);
    // 40 x 16 draws leave a symbol out with a probability of about 32 x (31/32)^640, 1e-7
    expect(new Set(randoms.join('')).size).toBe(32);
  });
});
