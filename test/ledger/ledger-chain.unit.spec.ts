import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainContent, chainEvents, GENESIS, linkHash } from '../../src/domain/ledger-chain.js';

describe('the ledger hash chain', () => {
  it('canonical JSON sorts keys at every depth and drops undefined, so stored jsonb hashes as written', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, 2], e: undefined })).toBe(
      '{"a":[{"c":null,"d":"x"},2],"b":1}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it('writes every JSON value as the plain definition does (keys sorted, undefined dropped), character for character', () => {
    // the definition the stored chains were hashed with: a change of text would break them
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      if (value !== null && typeof value === 'object')
        return `{${Object.keys(value)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`)
          .join(',')}}`;
      return JSON.stringify(value);
    };
    const values = fc.oneof(fc.jsonValue(), fc.anything(), fc.array(fc.anything()));
    fc.assert(
      fc.property(values, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
    );
  });

  it('hashes sha256(previous head + canonical {type, data without its link})', () => {
    const event = { type: 'SaleSettled', data: { net: 915, at: 't', chain: { seq: 9, prev: 'x', hash: 'y' } } };
    expect(chainContent(event)).toBe('{"data":{"at":"t","net":915},"type":"SaleSettled"}');
    expect(linkHash(GENESIS, event)).toBe(
      createHash('sha256').update(`${GENESIS}{"data":{"at":"t","net":915},"type":"SaleSettled"}`).digest('hex'),
    );
  });

  it('links each new event to the head before it, continuing the stream', () => {
    const [a, b] = chainEvents('f'.repeat(64), 4, [
      { type: 'A', data: { n: 1 } },
      { type: 'B', data: { n: 2 } },
    ]);
    const ha = linkHash('f'.repeat(64), { type: 'A', data: { n: 1 } });
    expect(a).toEqual({ type: 'A', data: { n: 1, chain: { seq: 4, prev: 'f'.repeat(64), hash: ha } } });
    expect(b).toEqual({
      type: 'B',
      data: { n: 2, chain: { seq: 5, prev: ha, hash: linkHash(ha, { type: 'B', data: { n: 2 } }) } },
    });
  });
});
