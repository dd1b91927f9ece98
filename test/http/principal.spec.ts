import type { FastifyRequest } from 'fastify';
import { Kysely, type KyselyPlugin, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import { hashToken, keyedTokenHash, newOperatorToken, newSupplierToken } from '../../src/crypto/tokens.js';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { forgetTokens, resolvePrincipal } from '../../src/http/principal.js';
import { createTables } from '../../src/projections/rebuild.js';
import { suppliersProjection } from '../../src/projections/suppliers.js';
import { createTestDatabase } from '../support/database.js';

const SECRET_KEY = newSecretKey();

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

  /** A supplier with one sandbox token, as the suppliers projection stores them; answers the token. */
  const supplierWithToken = async (supplierId: string, name: string, tokenId: string): Promise<string> => {
    const token = newSupplierToken('sandbox');
    await db.kysely
      .insertInto('suppliers')
      .values({ id: supplierId, name, rate_limits: null, created_at: new Date() })
      .execute();
    await db.kysely
      .insertInto('supplier_tokens')
      .values({
        token_hash: keyedTokenHash(SECRET_KEY, hashToken(token)),
        token_id: tokenId,
        supplier_id: supplierId,
        environment: 'sandbox',
        created_at: new Date(),
      })
      .execute();
    return token;
  };

  it('requests that miss the cache at the same moment share one look-up of their token', async () => {
    const token = await supplierWithToken('S1', 'Shared', 'T1');
    const unknown = newSupplierToken('sandbox');
    const deps = { db: counted, env: 'sandbox' as const, operatorToken: newOperatorToken(), secretKey: SECRET_KEY };
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

  it('a look-up that read a token before its revocation answers its own requests but is not cached', async () => {
    const token = await supplierWithToken('S2', 'Revoked', 'T2');
    // the look-up's answer held back after the database gave it
    let read!: () => void;
    const wasRead = new Promise<void>((resolve) => (read = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        read();
        await held;
        return args.result;
      },
    };
    const slow = new Kysely<Database>({ dialect: new PostgresDialect({ pool: db.pool }), plugins: [holding] });
    const deps = { db: slow, env: 'sandbox' as const, operatorToken: newOperatorToken(), secretKey: SECRET_KEY };
    const before = resolvePrincipal(request(token, '10.0.2.1'), deps);
    await wasRead;
    // revoked meanwhile: the row, then this instance's cache
    await db.kysely
      .updateTable('supplier_tokens')
      .set({ revoked_at: new Date() })
      .where('token_id', '=', 'T2')
      .execute();
    forgetTokens(slow);
    release();
    expect(await before).toMatchObject({ kind: 'supplier', supplierId: 'S2' });
    // the next request looks again and finds the token revoked
    expect(await resolvePrincipal(request(token, '10.0.2.2'), deps)).toEqual({ kind: 'anonymous', ip: '10.0.2.2' });
  });

  it('a shared look-up that fails fails each of its requests, and the next request looks again', async () => {
    const token = await supplierWithToken('S3', 'Flaky', 'T3');
    let failures = 1;
    const failingOnce: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (failures-- > 0) throw new Error('connection lost');
        return args.result;
      },
    };
    const flaky = new Kysely<Database>({ dialect: new PostgresDialect({ pool: db.pool }), plugins: [failingOnce] });
    const deps = { db: flaky, env: 'sandbox' as const, operatorToken: newOperatorToken(), secretKey: SECRET_KEY };
    const shared = await Promise.allSettled([1, 2].map((i) => resolvePrincipal(request(token, `10.0.3.${i}`), deps)));
    expect(shared.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await resolvePrincipal(request(token, '10.0.3.3'), deps)).toMatchObject({
      kind: 'supplier',
      supplierId: 'S3',
    });
  });
});
