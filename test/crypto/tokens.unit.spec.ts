import { describe, expect, it } from 'vitest';
import { hashToken, newOperatorToken, newSupplierToken, presented } from '../../src/crypto/tokens.js';

describe('presented', () => {
  it('tells the secret from any other token, and gives the stored hash of either', () => {
    const operator = newOperatorToken();
    const supplier = newSupplierToken('sandbox');
    expect(presented(operator, operator)).toEqual({ isSecret: true, hash: hashToken(operator) });
    expect(presented(supplier, operator)).toEqual({ isSecret: false, hash: hashToken(supplier) });
    // a near miss, and another secret (several services in one process each have their own)
    expect(presented(`${operator.slice(0, -1)}x`, operator).isSecret).toBe(false);
    const other = newOperatorToken();
    expect(presented(operator, other).isSecret).toBe(false);
    expect(presented(other, other).isSecret).toBe(true);
    expect(presented(operator, operator).isSecret).toBe(true);
  });
});
