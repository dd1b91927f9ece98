import { describe, expect, it } from 'vitest';
import { limitTable, specLimits } from '../../src/http/limits.js';

describe('the limits a service starts with', () => {
  it("are the spec's, with those given in code over them", () => {
    expect(limitTable()).toEqual(specLimits);
    expect(limitTable({ reads: 5, test: 1 })).toEqual({ ...specLimits, reads: 5, test: 1 });
  });

  it('refuse a limit no request could pass again (0, negative, fractional or not a number), naming it', () => {
    expect(() => limitTable({ writes: 0 })).toThrow('rate limit writes must be a whole number of at least 1, got 0');
    expect(() => limitTable({ bulk: -3 })).toThrow('rate limit bulk must be a whole number of at least 1, got -3');
    expect(() => limitTable({ sync: 1.5 })).toThrow('rate limit sync must be a whole number of at least 1, got 1.5');
    expect(() => limitTable({ reads: Number.NaN })).toThrow(
      'rate limit reads must be a whole number of at least 1, got NaN',
    );
  });
});
