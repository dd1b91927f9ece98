import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerVerify } from '../../src/cli/ledger.js';
import type { Config } from '../../src/config.js';
import { ledgerSigningKey, newLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import { entryText, linkHash } from '../../src/domain/ledger-chain.js';
import {
  type InclusionProofAnswer,
  readPublicKeys,
  readSignedHead,
  verifyConsistency,
  verifyInclusion,
} from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { buy, keys, type Supplier, uploadedOffer, withDb } from '../orders/fixtures.js';

const KEY = newLedgerSigningKey();
const SIGNER = ledgerSigningKey(KEY);

/**
 * Signed heads tied to time (signed_at, the ledger then, a view as of a moment no later),
 * and the proofs a supplier checks with the public key alone: an entry's inclusion in its
 * ledger's Merkle tree, and one head's tree being the beginning of another's.
 */
describe('heads tied to time, and proofs a supplier checks alone', () => {
  let svc: TestService;
  let alpha: Supplier;
  let productId: string;
  let dir: string;
  let auditor: Config;
  let publicKeys: ReturnType<typeof readPublicKeys>;

  const sell = async () => {
    await buy(svc, [{ product_id: productId, quantity: 1 }]);
    await svc.advance(700);
  };
  const head = async (asOf?: string) => {
    const answer = await alpha.api.get(`/balance/proof${asOf ? `?as_of=${asOf}` : ''}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const keep = async (name: string, kept: unknown) => {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(kept));
    return file;
  };
  const verify = async (args: string[]) => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
    const code = await ledgerVerify(auditor, [...args, '--public-key', svc.origin]);
    vi.restoreAllMocks();
    return { code, out };
  };
  const stored = () =>
    withDb(
      svc,
      async (db) =>
        (
          await db.query(
            `select event_id, stream_revision::int, type, data from es_events where stream_id = $1 order by stream_revision`,
            [`balance-${alpha.id}`],
          )
        ).rows,
    );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'proofs-'));
    svc = await startTestService({ extraConfig: { ledgerSigningKey: KEY } });
    auditor = { ...svc.services.config, databaseUrl: svc.databaseUrl, ledgerSigningKey: undefined, dataDir: dir };
    alpha = await svc.newSupplier('Proven');
    productId = (await svc.newProduct({ name: 'Proven' })).id;
    await uploadedOffer(alpha, productId, { price: 5000, values: keys('PR', 12) });
    publicKeys = readPublicKeys((await request(svc.origin, 'GET', '/.well-known/svc-ledger-signing-key')).text);
  });
  afterAll(async () => {
    await svc.stop();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('refuses an as_of after now, and a statement of a month not begun; signs a past view with the ledger as it stands now', async () => {
    await sell();
    const then = await head();
    await svc.advance(1); // an entry posted at the very moment viewed belongs to the view
    await sell();
    await svc.advance(3600);
    const future = new Date(svc.clock.now().getTime() + 1000).toISOString();
    for (const asOf of [future, '2099-01-01T00:00:00Z']) {
      const refused = await alpha.api.get(`/balance/proof?as_of=${asOf}`);
      expect([refused.status, refused.body.code, refused.body.errors]).toEqual([
        422,
        'validation_failed',
        [{ field: 'querystring.as_of', message: 'must not be after now' }],
      ]);
    }
    const month = await alpha.api.get('/balance/statements/2026-03');
    expect([month.status, month.body.code]).toEqual([422, 'validation_failed']);

    const past = await head(then.as_of);
    const now = svc.clock.now().toISOString();
    // the view is the head kept then; the tree is the ledger now, signed now
    expect([past.as_of, past.head, past.entries, past.root_hash]).toEqual([
      then.as_of,
      then.head,
      then.entries,
      then.root_hash,
    ]);
    expect(past.signed_at).toBe(now);
    expect(past.tree.size).toBe(then.entries + 2);
    const signed = readSignedHead(past.checkpoint, publicKeys);
    expect(signed).toEqual({
      ok: true,
      head: expect.objectContaining({
        signed_at: now,
        tree_size: then.entries + 2,
        as_of: then.as_of,
        as_of_tree_size: then.entries,
        as_of_head: then.head,
        as_of_root_hash: then.root_hash,
      }),
    });
    // the head kept then begins the ledger signed now: provably
    const proof = await alpha.api.get(`/balance/proof/consistency?from=${then.tree.size}&to=${past.tree.size}`);
    expect(proof.status, proof.text).toBe(200);
    expect(verifyConsistency(then.checkpoint, past.checkpoint, proof.body.proof, publicKeys)).toMatchObject({
      ok: true,
    });
  });

  it("proves every entry's inclusion against a head signed now, checked with the public key alone; any change fails", async () => {
    const entries = (await alpha.api.get('/balance/entries?limit=100')).body.data as { id: string }[];
    expect(entries.length).toBeGreaterThan(3);
    const signedNow = await head();
    for (const [i, e] of entries.entries()) {
      const answer = await alpha.api.get(`/balance/entries/${encodeURIComponent(e.id)}/proof`);
      expect(answer.status, answer.text).toBe(200);
      const proof = answer.body as InclusionProofAnswer;
      expect(proof.entry_id).toBe(e.id.replace(/:(pending|available)$/, ''));
      expect(proof.tree_size).toBe(signedNow.tree.size);
      const checked = verifyInclusion(proof, publicKeys);
      expect(checked, `entry ${i}`).toMatchObject({
        ok: true,
        head: { root_hash: signedNow.root_hash, tree_size: signedNow.tree.size },
        entry: { seq: proof.leaf_index },
      });
      if (i > 0) continue;
      const changes: [string, InclusionProofAnswer][] = [
        ['content', { ...proof, leaf: { ...proof.leaf, content: proof.leaf.content.replace(/"net":\d+/, '"net":1') } }],
        ['place', { ...proof, leaf_index: proof.leaf_index + 1 }],
        ['path', { ...proof, audit_path: [...proof.audit_path].reverse() }],
        ['signature', { ...proof, leaf: { ...proof.leaf, signature: 'ab'.repeat(64) } }],
        [
          'head',
          {
            ...proof,
            checkpoint: { ...proof.checkpoint, signed: proof.checkpoint.signed.replace('"tree_size"', '"tree_size" ') },
          },
        ],
        ['keys', proof],
      ];
      for (const [what, changed] of changes)
        expect(
          verifyInclusion(
            changed,
            what === 'keys' ? readPublicKeys(ledgerSigningKey(newLedgerSigningKey()).publicKey) : publicKeys,
          ).ok,
          what,
        ).toBe(false);
    }
    const unknown = await alpha.api.get('/balance/entries/sale-nothing/proof');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
  });

  it('answers a consistency proof between any two sizes, and refuses sizes past the ledger', async () => {
    const now = await head();
    const size = now.tree.size as number;
    for (const from of [0, 1, 2, size - 1, size]) {
      const answer = await alpha.api.get(`/balance/proof/consistency?from=${from}`);
      expect(answer.status, answer.text).toBe(200);
      expect([answer.body.from, answer.body.to]).toEqual([from, size]);
    }
    for (const query of [`from=${size + 1}`, `from=2&to=1`, `from=0&to=${size + 1}`, 'from=-1', 'from=x']) {
      const refused = await alpha.api.get(`/balance/proof/consistency?${query}`);
      expect([query, refused.status, refused.body.code]).toEqual([query, 422, 'validation_failed']);
    }
  });

  it("a rewrite signed with the key itself, and a past view signed over it: the supplier's earlier head catches both", async () => {
    const kept = await head();
    const keptFile = await keep('kept.json', kept);
    expect((await verify(['--checkpoint', keptFile])).code).toBe(0);
    // the service's own key rewrites a settled sale's amount and signs every entry after it again
    const rows = await stored();
    const target = rows.findIndex((r: any) => r.type === 'SaleSettled');
    let prev = rows[target].data.chain.prev as string;
    for (let i = target; i < rows.length; i++) {
      const { chain, ...content } = rows[i].data;
      const data = i === target ? { ...content, net: content.net + 100_000 } : content;
      if (i === target)
        data.postings = data.postings.map((p: any) => ({ ...p, amount: Math.sign(p.amount) * data.net }));
      const hash = linkHash(prev, { type: rows[i].type, data });
      const signature = SIGNER.sign(entryText({ supplierId: alpha.id, seq: i, prev, hash, keyId: SIGNER.keyId }));
      await withDb(svc, (db) =>
        db.query(`update es_events set data = $2 where event_id = $1`, [
          rows[i].event_id,
          { ...data, chain: { ...chain, prev, hash, signature } },
        ]),
      );
      prev = hash;
    }
    // the ledger verifies on its own, and the service signs a different past as of the kept moment
    expect((await verify([])).code).toBe(0);
    const backdated = await head(kept.as_of);
    expect(backdated.head).not.toBe(kept.head);
    expect(readSignedHead(backdated.checkpoint, publicKeys).ok).toBe(true);
    // the kept head names the rewrite
    const { code, out } = await verify(['--checkpoint', keptFile]);
    expect(code).toBe(1);
    expect(out[0]).toMatch(
      new RegExp(
        `^MISMATCH supplier ${alpha.id}: entry \\S+ \\(event \\w+, revision ${rows.length - 1}\\) is the last entry the checkpoint covers and the head after it is`,
      ),
    );
    // and no consistency proof joins the kept head to the one signed now
    const proof = await alpha.api.get(`/balance/proof/consistency?from=${kept.tree.size}&to=${backdated.tree.size}`);
    expect(verifyConsistency(kept.checkpoint, backdated.checkpoint, proof.body.proof, publicKeys)).toEqual({
      ok: false,
      reason: `the ledger of ${backdated.tree.size} entries does not begin with the ${kept.tree.size} the older head signed: it was rewritten`,
    });
    // put back as it was, for the next test
    for (const r of rows)
      await withDb(svc, (db) => db.query(`update es_events set data = $2 where event_id = $1`, [r.event_id, r.data]));
    expect((await verify(['--checkpoint', keptFile])).code).toBe(0);
  });

  it("names an entry dated at or before a kept head's as_of that its view did not hold", async () => {
    const kept = await head();
    const keptFile = await keep('before-backdating.json', kept);
    // an entry signed with the key, written after the head, dated before it (its settlement, by
    // the service, is dated after)
    await svc.advance(1);
    const rows = await stored();
    const last = rows.at(-1);
    const { chain: _chain, ...sale } = rows.find((r: any) => r.type === 'SaleCredited').data;
    const content = {
      ...sale,
      orderItemId: 'oi-backdated',
      entryId: 'sale-oi-backdated',
      at: '2026-01-05T10:00:00.000Z',
    };
    const prev = last.data.chain.hash;
    const hash = linkHash(prev, { type: 'SaleCredited', data: content });
    const seq = rows.length;
    const signature = SIGNER.sign(entryText({ supplierId: alpha.id, seq, prev, hash, keyId: SIGNER.keyId }));
    await svc.services.store.append(
      `balance-${alpha.id}`,
      [{ type: 'SaleCredited', data: { ...content, chain: { seq, prev, hash, keyId: SIGNER.keyId, signature } } }],
      last.stream_revision,
      svc.clock.now(),
    );
    await svc.drain();
    const { code, out } = await verify(['--checkpoint', keptFile]);
    expect(code).toBe(1);
    expect(out).toEqual([
      expect.stringMatching(
        new RegExp(
          `^BACKDATED supplier ${alpha.id}: entry sale-oi-backdated \\(event \\w+, revision ${seq}\\) is dated 2026-01-05T10:00:00.000Z, at or before the checkpoint's as_of ${kept.as_of}, and is not among the ${kept.entries} entries it held then: it was written after the checkpoint with an earlier date$`,
        ),
      ),
      `FAILED: supplier ${alpha.id}'s first ${kept.entries} entries match the head ${kept.head} signed at ${kept.signed_at} (key ${SIGNER.keyId}), and its view as of ${kept.as_of} the first ${kept.entries}; 2 entries since, 0 refused, 1 backdated`,
    ]);
  });
});
