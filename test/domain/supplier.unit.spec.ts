import { describe, expect, it } from 'vitest';
import { type SupplierEvent, supplierDecider } from '../../src/domain/supplier.js';
import { givenFor } from '../support/given.js';

const given = givenFor(supplierDecider);
const now = '2026-01-05T10:00:00.000Z';
const registered: SupplierEvent = { type: 'SupplierRegistered', data: { supplierId: 's1', name: 'Acme', at: now } };
const issued: SupplierEvent = {
  type: 'SupplierTokenIssued',
  data: { supplierId: 's1', tokenId: 't1', tokenHash: 'h1', environment: 'sandbox', at: now },
};

describe('Supplier', () => {
  it('registers once', () => {
    given()
      .when({ type: 'RegisterSupplier', data: { supplierId: 's1', name: 'Acme', now } })
      .then([registered]);
    given(registered)
      .when({ type: 'RegisterSupplier', data: { supplierId: 's1', name: 'Acme', now } })
      .thenThrows('supplier_exists');
  });

  it('issues tokens only to a registered supplier, keeping the hash only', () => {
    given(registered)
      .when({ type: 'IssueToken', data: { tokenId: 't1', tokenHash: 'h1', environment: 'sandbox', now } })
      .then([issued]);
    given()
      .when({ type: 'IssueToken', data: { tokenId: 't1', tokenHash: 'h1', environment: 'sandbox', now } })
      .thenThrows('not_found');
  });

  it('revokes a token once; revoking again changes nothing; an unknown token is not found', () => {
    const revoked: SupplierEvent = { type: 'SupplierTokenRevoked', data: { supplierId: 's1', tokenId: 't1', at: now } };
    given(registered, issued)
      .when({ type: 'RevokeToken', data: { tokenId: 't1', now } })
      .then([revoked]);
    given(registered, issued, revoked)
      .when({ type: 'RevokeToken', data: { tokenId: 't1', now } })
      .then([]);
    given(registered)
      .when({ type: 'RevokeToken', data: { tokenId: 'nope', now } })
      .thenThrows('not_found');
    expect(given(registered, issued, revoked).state().tokens).toEqual({ t1: { revoked: true, keyed: false } });
  });

  it('keys the plain hashes an older release stored once, token by token; a keyed or unknown token is left alone', () => {
    const keyed = 'hmac-sha256:' + 'a'.repeat(64);
    const second: SupplierEvent = {
      type: 'SupplierTokenIssued',
      data: {
        supplierId: 's1',
        tokenId: 't2',
        tokenHash: 'hmac-sha256:' + 'b'.repeat(64),
        environment: 'sandbox',
        at: now,
      },
    };
    const done: SupplierEvent = {
      type: 'SupplierTokenHashesKeyed',
      data: { supplierId: 's1', hashes: { t1: keyed }, at: now },
    };
    given(registered, issued, second)
      .when({ type: 'KeyTokenHashes', data: { hashes: { t1: keyed, t2: keyed, t9: keyed }, now } })
      .then([done]);
    // a hash that is not a keyed one keys nothing; a second pass finds nothing to key
    given(registered, issued)
      .when({ type: 'KeyTokenHashes', data: { hashes: { t1: 'c'.repeat(64) }, now } })
      .then([]);
    given(registered, issued, done)
      .when({ type: 'KeyTokenHashes', data: { hashes: { t1: keyed }, now } })
      .then([]);
    expect(given(registered, issued, second, done).state().tokens).toEqual({
      t1: { revoked: false, keyed: true },
      t2: { revoked: false, keyed: true },
    });
  });

  it('sets rate limits as the whole set after the change; the same values again record nothing', () => {
    const raised: SupplierEvent = {
      type: 'SupplierRateLimitsSet',
      data: { supplierId: 's1', limits: { bulk: 120 }, at: now },
    };
    given(registered)
      .when({ type: 'SetRateLimits', data: { limits: { bulk: 120 }, now } })
      .then([raised]);
    given(registered, raised)
      .when({ type: 'SetRateLimits', data: { limits: { reads: 3000 }, now } })
      .then([
        { type: 'SupplierRateLimitsSet', data: { supplierId: 's1', limits: { bulk: 120, reads: 3000 }, at: now } },
      ]);
    given(registered, raised)
      .when({ type: 'SetRateLimits', data: { limits: { bulk: 120 }, now } })
      .then([]);
    given()
      .when({ type: 'SetRateLimits', data: { limits: { bulk: 120 }, now } })
      .thenThrows('not_found');
  });
});
