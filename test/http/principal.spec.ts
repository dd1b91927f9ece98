import type { FastifyRequest } from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import { hashToken, newOperatorToken, newSupplierToken } from '../../src/crypto/tokens.js';
import { resolvePrincipal } from '../../src/http/principal.js';
import { createTables } from '../../src/projections/rebuild.js';
import { suppliersProjection } from '../../src/projections/suppliers.js';
import { createTestDatabase } from '../support/database.js';

const request = (token: string, ip: string) =>
  ({ headers: { authorization: `Bearer ${token}` }, ip }) as unknown as FastifyRequest;

describe('resolving the caller of a request', () => {
  let db: Db;
  let counted: Kysely<Database>;
  let reads = 0;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 4);
    await createTables(db.kysely, suppliersProjection, 'public');
    // the same pool, counting the statements it is given
    counted = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: db.pool }),
      log: () => {
        reads++;
      },
    });
  });
  afterAll(() => db.close());

  it('requests that miss the cache at the same moment share one look-up of their token', async () => {
    const token = newSupplierToken('sandbox');
    const unknown = newSupplierToken('sandbox');
    await db.kysely
      .insertInto('suppliers')
      .values({ id: 'S1', name: 'Shared', rate_limits: null, created_at: new Date() })
      .execute();
    await db.kysely
      .insertInto('supplier_tokens')
      .values({
        token_hash: hashToken(token),
        token_id: 'T1',
        supplier_id: 'S1',
        environment: 'sandbox',
        created_at: new Date(),
      })
      .execute();
    const deps = { db: counted, env: 'sandbox' as const, operatorToken: newOperatorToken() };
    reads = 0;
    const known = await Promise.all(
      Array.from({ length: 20 }, (_, i) => resolvePrincipal(request(token, `10.0.0.${i}`), deps)),
    );
    expect(reads).toBe(1);
    expect(new Set(known).size).toBe(1);
    expect(known[0]).toEqual({
      kind: 'supplier',
      supplierId: 'S1',
      supplierName: 'Shared',
      tokenId: 'T1',
      rateLimits: {},
    });
    // now from the cache, without a promise
    expect(resolvePrincipal(request(token, '10.0.0.1'), deps)).toBe(known[0]);

    reads = 0;
    const strangers = await Promise.all([1, 2, 3].map((i) => resolvePrincipal(request(unknown, `10.0.1.${i}`), deps)));
    expect(reads).toBe(1);
    // each stays anonymous at its own address
    expect(strangers).toEqual([1, 2, 3].map((i) => ({ kind: 'anonymous', ip: `10.0.1.${i}` })));
  });
});
