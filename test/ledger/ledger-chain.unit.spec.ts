import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LedgerKeyring, ledgerKeys, newLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import {
  type ChainLink,
  canonicalJson,
  chainContent,
  chainEvents,
  GENESIS,
  ledgerWalk,
  linkHash,
} from '../../src/domain/ledger-chain.js';

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

describe("another instance's seal on an entry", () => {
  const seed = newLedgerSigningKey();
  const supplierId = '01M8TBW00M8F1THKG54WC5GXKQ';
  type Written = { type: string; data: { supplierId: string; net: number; at: string; chain: ChainLink } };
  const written = () =>
    chainEvents(
      GENESIS,
      0,
      [
        { type: 'SaleCredited', data: { supplierId, net: 915, at: 't1' } },
        { type: 'SaleCredited', data: { supplierId, net: 400, at: 't2' } },
      ],
      supplierId,
      ledgerKeys(seed).signer,
    ) as Written[];
  const walked = (events: Written[], keyring: LedgerKeyring) => {
    const walk = ledgerWalk(supplierId, keyring);
    return events.map((e) => walk.step(e).accepted);
  };

  it('stands for the verification on an instance holding the same key, and only there', () => {
    const events = written();
    expect(events.map((e) => e.data.chain.seal)).toEqual([expect.stringMatching(/^[\w-]{22}$/), expect.any(String)]);
    const other = ledgerKeys(seed).keyring;
    expect(walked(events, other)).toEqual([true, true]);
    expect({ verified: other.verified, sealed: other.sealed }).toEqual({ verified: 0, sealed: 2 });
    // an auditor with the public key only verifies every signature, seals or not
    const auditor = new LedgerKeyring(other.published);
    expect(walked(events, auditor)).toEqual([true, true]);
    expect({ verified: auditor.verified, sealed: auditor.sealed }).toEqual({ verified: 2, sealed: 0 });
  });

  it('proves nothing it was not made for: a changed seal is verified instead, a seal moved to a forged entry fails', () => {
    const [first, second] = written();
    const changed = { ...first!, data: { ...first!.data, chain: { ...first!.data.chain, seal: 'A'.repeat(22) } } };
    const other = ledgerKeys(seed).keyring;
    expect(walked([changed, second!], other)).toEqual([true, true]);
    expect({ verified: other.verified, sealed: other.sealed }).toEqual({ verified: 1, sealed: 1 });
    // an insider's entry in the second's place, carrying the genuine entry's signature and seal
    const forged = { ...second!, data: { ...second!.data, net: 500_000 } };
    const reader = ledgerKeys(seed).keyring;
    expect(walked([first!, forged], reader)).toEqual([true, false]);
    expect({ verified: reader.verified, sealed: reader.sealed }).toEqual({ verified: 2, sealed: 1 });
    // another key's seal counts for nothing
    const stranger = ledgerKeys(newLedgerSigningKey());
    const resealed = {
      ...second!,
      data: {
        ...second!.data,
        chain: { ...second!.data.chain, seal: stranger.current.seal('x', second!.data.chain.signature!) },
      },
    };
    const third = ledgerKeys(seed).keyring;
    expect(walked([first!, resealed], third)).toEqual([true, true]);
    expect({ verified: third.verified, sealed: third.sealed }).toEqual({ verified: 1, sealed: 1 });
  });
});
