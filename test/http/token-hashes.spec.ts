import { createHmac, hash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, keyedTokenHash, newSupplierToken } from '../../src/crypto/tokens.js';
import { newSecretKey } from '../../src/crypto/secret-box.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService, type TestService } from '../support/harness.js';
import { client } from '../support/http.js';
import { olderRelease } from '../support/older-release.js';
import { withDb } from '../orders/fixtures.js';

const whoami = (svc: TestService, token: string) => client(svc.baseUrl, token).get('/whoami');

/**
 * Token rows hold a keyed hash: someone who can write to the database, but does not hold
 * SVC_SECRET_KEY, cannot make a row (or an event) that a token of their own matches. Tokens
 * an older release stored by their plain hash are keyed once, at the upgrade, and keep working.
 */
describe('keyed token hashes', () => {
  const secretKey = newSecretKey();
  let databaseUrl: string;
  let svc: TestService;
  let older: Awaited<ReturnType<Awaited<ReturnType<typeof olderRelease>>['supplier']>>;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const release = await olderRelease(databaseUrl);
    try {
      older = await release.supplier('Older Keys', 3, 1);
    } finally {
      await release.close();
    }
    svc = await startTestService({ databaseUrl, secretKey });
    await svc.drain(); // the read models caught up with what the older release wrote
  });
  afterAll(() => svc.stop());

  it('keeps the tokens an older release issued working after the upgrade, keyed without the tokens themselves', async () => {
    const [first, second, revoked] = older.tokens;
    for (const { tokenId, token } of [first!, second!])
      expect((await whoami(svc, token)).body).toEqual({
        supplier: { id: older.supplierId, name: 'Older Keys' },
        environment: 'sandbox',
        token_id: tokenId,
      });
    expect((await whoami(svc, revoked!.token)).status).toBe(401);
    const rows = await svc.services.db
      .selectFrom('supplier_tokens')
      .select(['token_id', 'token_hash'])
      .where('supplier_id', '=', older.supplierId)
      .orderBy('token_id')
      .execute();
    // the live ones keyed, the revoked one left with the plain hash nothing looks up
    expect(rows).toEqual(
      [
        { token_id: first!.tokenId, token_hash: keyedTokenHash(secretKey, hashToken(first!.token)) },
        { token_id: second!.tokenId, token_hash: keyedTokenHash(secretKey, hashToken(second!.token)) },
        { token_id: revoked!.tokenId, token_hash: hashToken(revoked!.token) },
      ].sort((a, b) => a.token_id.localeCompare(b.token_id)),
    );
    const upgrades = await svc.services.db.selectFrom('upgrades').selectAll().execute();
    expect(upgrades.map((u) => [u.name, u.summary])).toEqual([
      ['keyed-token-hashes-and-signed-ledger', expect.objectContaining({ tokens_keyed: 2 })],
    ]);
    expect(
      svc.logs.filter(
        (l) => l.msg === 'the upgrade keyed the token hashes and signed the ledger entries an older release wrote',
      ),
    ).toHaveLength(1);
  });

  it('a token row inserted with SQL authenticates no one, whatever hash it holds', async () => {
    const supplier = await svc.newSupplier('Inside Job');
    const forged = newSupplierToken('sandbox');
    const plain = hashToken(forged);
    const guesses = [
      plain, // as the previous release stored hashes
      `hmac-sha256:${plain}`,
      `hmac-sha256:${hash('sha256', plain, 'hex')}`,
      `hmac-sha256:${createHmac('sha256', '').update(plain).digest('hex')}`,
      // the right scheme under another key
      keyedTokenHash(newSecretKey(), plain),
    ];
    for (const [i, tokenHash] of guesses.entries()) {
      await withDb(svc, (db) =>
        db.query(
          `insert into supplier_tokens (token_hash, token_id, supplier_id, environment, created_at) values ($1, $2, $3, 'sandbox', now())`,
          [tokenHash, `forged-${i}`, supplier.id],
        ),
      );
      const answer = await whoami(svc, forged);
      expect([i, answer.status, answer.body.code]).toEqual([i, 401, 'unauthorized']);
    }
    // nor does an issue event appended to the supplier's stream in the older shape
    const another = newSupplierToken('sandbox');
    await svc.services.store.append(
      `supplier-${supplier.id}`,
      [
        {
          type: 'SupplierTokenIssued',
          data: {
            supplierId: supplier.id,
            tokenId: newId(),
            tokenHash: hashToken(another),
            environment: 'sandbox',
            at: '2026-01-05T10:00:00.000Z',
          },
        },
      ],
      'any',
      svc.clock.now(),
    );
    await svc.drain();
    expect((await whoami(svc, another)).status).toBe(401);
    expect((await supplier.api.get('/whoami')).status).toBe(200);
  });

  it('is done once: a plain hash written after the upgrade is not keyed by a later start', async () => {
    const later = newSupplierToken('sandbox');
    await svc.services.store.append(
      `supplier-${older.supplierId}`,
      [
        {
          type: 'SupplierTokenIssued',
          data: {
            supplierId: older.supplierId,
            tokenId: newId(),
            tokenHash: hashToken(later),
            environment: 'sandbox',
            at: '2026-01-05T10:00:00.000Z',
          },
        },
      ],
      'any',
      svc.clock.now(),
    );
    await svc.stop();
    svc = await startTestService({ databaseUrl, secretKey });
    await svc.drain();
    expect((await whoami(svc, later)).status).toBe(401);
    expect((await whoami(svc, older.tokens[0]!.token)).status).toBe(200);
    const keyed = await withDb(
      svc,
      async (db) =>
        (await db.query(`select count(*)::int as n from es_events where type = 'SupplierTokenHashesKeyed'`)).rows[0].n,
    );
    expect(keyed).toBe(1);
  });
});
