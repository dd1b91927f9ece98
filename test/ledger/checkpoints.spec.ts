import { createPublicKey, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerVerify } from '../../src/cli/ledger.js';
import type { Config } from '../../src/config.js';
import { newLedgerSigningKey, verifyCheckpointSignature } from '../../src/crypto/ledger-signing.js';
import { linkHash } from '../../src/domain/ledger-chain.js';
import { verifySignature } from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import { buy, eur, keys, type Supplier, troubles, uploadedOffer, withDb } from '../orders/fixtures.js';

const KEY = newLedgerSigningKey();
const DAY_S = 24 * 3600;

/**
 * The ledger's chain against someone who edits the event store: an entry stripped of its
 * link is tampering (ledger verify, /balance/proof); chain heads are signed with the
 * ledger's Ed25519 key, whose public half anyone reads at a well-known address; a daily
 * `ledger.checkpoint` webhook hands each subscribed supplier a signed head; `ledger verify
 * --checkpoint` checks the store against a head a supplier kept.
 */
describe('signed ledger checkpoints', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let config: Config;
  let alpha: Supplier;
  let dir: string;
  let named: Awaited<ReturnType<typeof startReceiver>>;
  let everything: Awaited<ReturnType<typeof startReceiver>>;
  let namedSecret: string;
  let payoutEntry: string;

  const run = async (args: string[]) => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(`ERR ${String(line)}`));
    const code = await ledgerVerify(config, args);
    vi.restoreAllMocks();
    return { code, out };
  };

  const events = () =>
    withDb(
      svc,
      async (db) =>
        (
          await db.query(
            `select event_id, stream_revision, type, data from es_events where stream_id = $1 order by stream_revision`,
            [`balance-${alpha.id}`],
          )
        ).rows,
    );
  const setData = (eventId: string, data: unknown) =>
    withDb(svc, (db) => db.query(`update es_events set data = $2 where event_id = $1`, [eventId, data]));

  const keep = async (name: string, kept: unknown) => {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(kept));
    return file;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'checkpoints-'));
    svc = await startTestService({ trustedCa: tls.cert, extraConfig: { ledgerSigningKey: KEY } });
    config = { ...svc.services.config, databaseUrl: svc.databaseUrl };
    named = await startReceiver({ tls });
    everything = await startReceiver({ tls });
    alpha = await svc.newSupplier('Checkpoint Alpha');
    const productId = (await svc.newProduct({ name: 'Checkpoint' })).id;
    await uploadedOffer(alpha, productId, { price: 5000, values: keys('CK', 4) });
    await buy(svc, [{ product_id: productId, quantity: 1 }]);
    await buy(svc, [{ product_id: productId, quantity: 1 }]);
    await svc.advance(700); // both sales settle
    const payout = await alpha.api.post('/payouts', { amount: eur(2000) });
    expect(payout.status, payout.text).toBe(201);
    payoutEntry = `payout-${payout.body.id}`;
    const hook = await alpha.api.post('/webhooks', { url: named.url, events: ['ledger.checkpoint'] });
    expect(hook.status, hook.text).toBe(201);
    namedSecret = hook.body.secret;
    expect((await alpha.api.post('/webhooks', { url: everything.url, events: ['*'] })).status).toBe(201);
    await svc.drain();
  });
  afterAll(async () => {
    // the refusals of the entry tampered with, and nothing else
    expect(troubles(svc).filter((t) => !t.startsWith('ledger entry refused'))).toEqual([]);
    // the signing key never reaches a log line
    expect(JSON.stringify(svc.logs)).not.toContain(KEY);
    await svc.stop();
    await named.close();
    await everything.close();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('a newest entry stripped of its link with its amount changed is tampering: ledger verify names it, /balance/proof signs no new head', async () => {
    const newest = (await events()).at(-1)!;
    expect([newest.type, newest.data.entryId, newest.data.chain.seq]).toEqual(['PayoutCreated', payoutEntry, 4]);
    const clean = await alpha.api.get('/balance/proof');
    expect([clean.status, clean.body.entries]).toEqual([200, 5]);
    // the review's edit, exactly: remove `chain` from the newest event's data and add 1000 to its amount
    await withDb(svc, (db) =>
      db.query(
        `update es_events set data = jsonb_set(data - 'chain', '{amount}', to_jsonb((data->>'amount')::int + 1000)) where event_id = $1`,
        [newest.event_id],
      ),
    );
    try {
      const { code, out } = await run([]);
      expect(code).toBe(1);
      expect(out).toEqual([
        `REFUSED supplier ${alpha.id}: entry ${payoutEntry} (event ${newest.event_id}, revision 4) carries no link nor signature and was not signed when the ledger was upgraded: it was put in from elsewhere`,
        'FAILED: 4 entries of 1 supplier(s) verified, 1 refused',
      ]);
      const proof = await alpha.api.get('/balance/proof');
      expect([proof.status, proof.body.code, proof.body.entry_id]).toEqual([409, 'ledger_chain_broken', payoutEntry]);
      expect(proof.body.detail).toBe(
        `the ledger's hash chain is broken at entry ${payoutEntry} (revision 4), which carries no link nor signature and was not signed when the ledger was upgraded: it was put in from elsewhere; no head is signed over it`,
      );
      expect(proof.body.head).toBeUndefined();
      // a head as of before the edited entry is not vouched for either: the stream is tampered
      expect((await alpha.api.get(`/balance/proof?as_of=2026-01-05T10:00:00.000Z`)).status).toBe(409);
      expect((await alpha.api.get('/balance/statements/2026-01')).body.code).toBe('ledger_chain_broken');
    } finally {
      await setData(newest.event_id, newest.data);
    }
    expect((await run([])).code).toBe(0);
    expect((await alpha.api.get('/balance/proof')).body).toEqual(clean.body);
  });

  it('signs the head: the signature verifies with the public key published without a token, and fails on any changed byte', async () => {
    const published = await request(svc.origin, 'GET', '/.well-known/svc-ledger-signing-key');
    expect(published.status).toBe(200);
    const { algorithm, key_id, public_key, public_key_pem, checkpoint_format } = published.body;
    expect([algorithm, checkpoint_format]).toEqual(['ed25519', 'svc-ledger-checkpoint/2']);
    expect(public_key).toMatch(/^[0-9a-f]{64}$/);
    expect(key_id).toMatch(/^[0-9a-f]{16}$/);
    const proof = (await alpha.api.get('/balance/proof')).body;
    const { checkpoint } = proof;
    expect(checkpoint.algorithm).toBe('ed25519');
    expect(checkpoint.key_id).toBe(key_id);
    // the signed text says what it covers, canonically: the ledger when signed, and the view as of (here the same)
    expect(proof.signed_at).toBe(svc.clock.now().toISOString());
    expect(proof.as_of).toBe(proof.signed_at);
    expect(proof.tree).toEqual({
      size: 5,
      root_hash: proof.root_hash,
      head: proof.head,
      last_entry_id: payoutEntry,
      last_entry_at: proof.last_entry_at,
    });
    expect(checkpoint.signed).toBe(
      `{"as_of":"${proof.as_of}","as_of_head":"${proof.head}","as_of_last_entry_id":"${payoutEntry}","as_of_root_hash":"${proof.root_hash}","as_of_tree_size":5,"format":"svc-ledger-checkpoint/2","head":"${proof.head}","key_id":"${key_id}","last_entry_id":"${payoutEntry}","root_hash":"${proof.root_hash}","signed_at":"${proof.signed_at}","supplier_id":"${alpha.id}","tree_size":5}`,
    );
    // a supplier needs the public key alone: plain node:crypto with the PEM, and the raw key
    const pem = createPublicKey(public_key_pem);
    const bytes = Buffer.from(checkpoint.signed, 'utf8');
    const signature = Buffer.from(checkpoint.signature, 'hex');
    expect(verify(null, bytes, pem, signature)).toBe(true);
    expect(verifyCheckpointSignature(public_key, checkpoint.signed, checkpoint.signature)).toBe(true);
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i] = changed[i]! ^ 0x01;
      expect(verify(null, changed, pem, signature), `signed byte ${i}`).toBe(false);
    }
    for (let i = 0; i < signature.length; i++) {
      const changed = Buffer.from(signature);
      changed[i] = changed[i]! ^ 0x01;
      expect(verify(null, bytes, pem, changed), `signature byte ${i}`).toBe(false);
    }
    // the same head, signed the same way, in the month's statement: viewed as of its last entry
    const statement = (await alpha.api.get('/balance/statements/2026-01')).body;
    expect(statement.checkpoint).toEqual(
      (await alpha.api.get(`/balance/proof?as_of=${proof.last_entry_at}`)).body.checkpoint,
    );
    expect(
      verify(null, Buffer.from(statement.checkpoint.signed), pem, Buffer.from(statement.checkpoint.signature, 'hex')),
    ).toBe(true);
  });

  it('sends ledger.checkpoint daily at 00:00 UTC to the endpoint that names it, and not to the one subscribed to *', async () => {
    const midnight = new Date(Math.ceil(svc.clock.now().getTime() / (DAY_S * 1000)) * DAY_S * 1000);
    expect(midnight.toISOString()).toBe('2026-01-06T00:00:00.000Z');
    named.received.length = 0;
    everything.received.length = 0;
    await svc.advance((midnight.getTime() - svc.clock.now().getTime()) / 1000 - 1);
    expect(named.received).toEqual([]); // not before midnight
    await svc.advance(1);
    expect(named.received.map((r) => r.body.type)).toEqual(['ledger.checkpoint']);
    const delivered = named.received[0]!;
    const ts = Number(delivered.headers['x-svc-timestamp']);
    expect(
      verifySignature(delivered.raw, delivered.headers as Record<string, string>, [namedSecret], { now: () => ts }),
    ).toEqual({ ok: true, timestamp: ts });
    expect(delivered.headers['x-svc-event']).toBe('ledger.checkpoint');
    expect(delivered.body).toMatchObject({
      id: `ledger_checkpoint_20260106_${alpha.id}`,
      type: 'ledger.checkpoint',
      mode: 'test',
      created_at: '2026-01-06T00:00:00.000Z',
    });
    // the head as of that midnight, as /balance/proof signs it
    // with the latest cosignature of each witness (none yet: test/ledger/witness.spec.ts sends some)
    expect(delivered.body.data).toEqual({
      ...(await alpha.api.get('/balance/proof?as_of=2026-01-06T00:00:00.000Z')).body,
      cosignatures: [],
    });
    expect(everything.received.filter((r) => r.body.type === 'ledger.checkpoint')).toEqual([]);
    // the next day's, once
    await svc.advance(DAY_S);
    expect(named.received.map((r) => r.body.id)).toEqual([
      `ledger_checkpoint_20260106_${alpha.id}`,
      `ledger_checkpoint_20260107_${alpha.id}`,
    ]);
    expect(everything.received.filter((r) => r.body.type === 'ledger.checkpoint')).toEqual([]);
    await keep('webhook.json', delivered.body);
  });

  it('ledger verify --checkpoint passes on the untouched store, and names the first changed entry after an edit', async () => {
    const proof = (await alpha.api.get('/balance/proof')).body;
    const kept = await keep('proof.json', proof);
    const ok = await run(['--checkpoint', kept]);
    expect(ok).toEqual({
      code: 0,
      out: [
        `OK: supplier ${alpha.id}'s first 5 entries match the head ${proof.head} signed at ${proof.signed_at} (key ${proof.checkpoint.key_id}), and its view as of ${proof.as_of} the first 5; 0 entries since, 0 refused, 0 backdated`,
      ],
    });
    // the webhook's envelope is a kept head too
    expect((await run(['--checkpoint', path.join(dir, 'webhook.json')])).code).toBe(0);

    const stored = await events();
    const target = stored[2]!;
    await setData(target.event_id, { ...target.data, net: target.data.net + 1 });
    try {
      const { code, out } = await run(['--checkpoint', kept, '--supplier', alpha.id]);
      expect(code).toBe(1);
      expect(out).toEqual([
        `MISMATCH supplier ${alpha.id}: entry ${target.data.entryId} (event ${target.event_id}, revision 2) its stored content does not match what was signed: it was changed after it was written`,
        `FAILED: the ledger no longer matches the checkpoint of 5 entries signed at ${proof.signed_at} (key ${proof.checkpoint.key_id})`,
      ]);
    } finally {
      await setData(target.event_id, target.data);
    }

    // a forger who rewrites the links from the changed entry on cannot sign them: the plain verify names it too
    let prev = target.data.chain.prev as string;
    const forged = stored.slice(2).map((e, i) => {
      const data = { ...e.data, ...(i === 0 && { net: e.data.net + 1 }) };
      const hash = linkHash(prev, { type: e.type, data });
      data.chain = { ...e.data.chain, prev, hash };
      prev = hash;
      return { e, data };
    });
    for (const { e, data } of forged) await setData(e.event_id, data);
    try {
      expect((await run([])).code).toBe(1);
      const { code, out } = await run(['--checkpoint', kept]);
      expect(code).toBe(1);
      expect(out[0]).toBe(
        `MISMATCH supplier ${alpha.id}: entry ${target.data.entryId} (event ${target.event_id}, revision 2) its signature does not verify under key ${target.data.chain.keyId}: it was written or rewritten without the ledger's key`,
      );
      expect(prev).not.toBe(proof.head);
    } finally {
      for (const e of stored.slice(2)) await setData(e.event_id, e.data);
    }
    expect((await run(['--checkpoint', kept])).code).toBe(0);

    // a checkpoint changed by one byte is refused before anything is compared
    const altered = { ...proof.checkpoint, signed: proof.checkpoint.signed.replace('"tree_size":5', '"tree_size":4') };
    expect(await run(['--checkpoint', await keep('altered.json', { checkpoint: altered })])).toEqual({
      code: 1,
      out: [
        'REFUSED checkpoint: its signature does not verify: the checkpoint was changed, or the ledger did not sign it',
        'FAILED: the checkpoint is not one the ledger signed; nothing was compared',
      ],
    });
    // a file without one, and a stray flag, are usage errors
    expect((await run(['--checkpoint', await keep('nothing.json', { head: proof.head })])).code).toBe(2);
    expect((await run(['--checkpoint'])).code).toBe(2);
  });

  it('refuses a webhook endpoint that names an unknown event, and keeps ledger.checkpoint out of *', async () => {
    const bad = await alpha.api.post('/webhooks', { url: named.url, events: ['ledger.snapshot'] });
    expect([bad.status, bad.body.code]).toEqual([422, 'validation_failed']);
    const list = (await alpha.api.get('/webhooks')).body.data.map((w: any) => w.events);
    expect(list).toEqual(expect.arrayContaining([['ledger.checkpoint'], ['*']]));
  });
});
