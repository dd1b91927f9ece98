import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onBalance } from '../../src/commands/ledger.js';
import { ledgerSigningKey, newLedgerSigningKey } from '../../src/crypto/ledger-signing.js';
import { entryText, linkHash } from '../../src/domain/ledger-chain.js';
import {
  type Cosignature,
  describeHead,
  fileWitnessState,
  newWitnessKey,
  readPublicKeys,
  readSignedHead,
  runWitness,
  verifyConsistency,
  verifyCosignature,
  witnessCommand,
  witnessKey,
} from '../../src/sdk/index.js';
import { startTestService, type TestService } from '../support/harness.js';
import { request } from '../support/http.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';
import { troubles, withDb } from '../orders/fixtures.js';

const KEY = newLedgerSigningKey();
const SIGNER = ledgerSigningKey(KEY);
const STEPS = 10;
const PER_STEP = 100;

/**
 * A witness of a supplier's ledger (RFC 9162's witnesses): it keeps the last head it
 * accepted, accepts a new one only when a consistency proof shows the ledger still begins with
 * it, cosigns what it accepts, and refuses a fork or a rewrite naming both heads. The service
 * keeps and publishes the cosignatures, and the daily ledger.checkpoint carries them.
 */
describe('a witness of a supplier ledger', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let alpha: { id: string; token: string; api: any };
  let beta: { id: string; token: string; api: any };
  let dir: string;
  let publicKeyFile: string;
  let witnessKeyFile: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let posted = 0;
  const keys = () => readPublicKeys(SIGNER.publicKey);

  /** Sales posted through the ledger's write path, as a captured order posts them (each one entry, signed). */
  const postSales = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const n = posted++;
      await onBalance(
        svc.services.commands,
        alpha.id,
        (now) => ({
          type: 'CreditSale',
          data: {
            supplierId: alpha.id,
            orderId: `order-w${n}`,
            orderItemId: `item-w${n}`,
            gross: 1000,
            commission: 85,
            net: 915,
            availableAt: new Date(Date.parse(now) + 600_000).toISOString(),
            now,
          },
        }),
        { supplierId: alpha.id },
      );
    }
    await svc.drain();
  };
  const witness = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const out: string[] = [];
    const code = await witnessCommand(
      args,
      env,
      (line) => void out.push(line),
      (line) => void out.push(`ERR ${line}`),
    );
    return { code, out };
  };
  const settings = (state: string) => [
    '--base-url',
    svc.origin,
    '--token',
    alpha.token,
    '--public-key',
    publicKeyFile,
    '--witness-key',
    witnessKeyFile,
    '--state',
    path.join(dir, state),
  ];
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
  const cosignatures = async () => {
    const answer = await alpha.api.get('/balance/cosignatures');
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data as Cosignature[];
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'witness-'));
    svc = await startTestService({ trustedCa: tls.cert, extraConfig: { ledgerSigningKey: KEY } });
    alpha = await svc.newSupplier('Witnessed Alpha');
    beta = await svc.newSupplier('Witnessed Beta');
    receiver = await startReceiver({ tls });
    publicKeyFile = path.join(dir, 'ledger-public-key.json');
    await writeFile(publicKeyFile, (await request(svc.origin, 'GET', '/.well-known/svc-ledger-signing-key')).text);
    witnessKeyFile = path.join(dir, 'witness.key');
  });
  afterAll(async () => {
    expect(troubles(svc)).toEqual([]);
    await svc.stop();
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the public key from a file or the service, makes no key of the ledger, and names the setting of one missing', async () => {
    const before = await readdir(dir);
    const noPublicKey = await witness(
      settings('none.json').filter((_, i, a) => a[i] !== '--public-key' && a[i - 1] !== '--public-key'),
    );
    expect(noPublicKey.code).toBe(2);
    expect(noPublicKey.out[0]?.split('\n')[0]).toBe(
      "ERR missing --public-key (or SVC_LEDGER_PUBLIC_KEY): the ledger's public key, which no witness makes",
    );
    expect(await readdir(dir)).toEqual(before);
    // a key file that is not one is named, with its setting
    const notAKey = await witness([...settings('none.json'), '--public-key', witnessKeyFile + '.absent']);
    expect(notAKey.code).toBe(2);
    expect(notAKey.out[0]).toMatch(
      /^ERR cannot read the ledger's public key from .*\.absent \(--public-key or SVC_LEDGER_PUBLIC_KEY\): ENOENT/,
    );
    // the witness's own key is made only when asked, readable by its owner only, never over another
    const made = await witness(['--new-key', witnessKeyFile]);
    const own = witnessKey(await readFile(witnessKeyFile, 'utf8'));
    expect(made).toEqual({
      code: 0,
      out: [`witness key ${own.keyId} written to ${witnessKeyFile}; its public key: ${own.publicKey}`],
    });
    expect((await stat(witnessKeyFile)).mode & 0o777).toBe(0o600);
    const again = await witness(['--new-key', witnessKeyFile]);
    expect([again.code, again.out[0]]).toEqual([
      2,
      expect.stringMatching(/^ERR cannot write a new witness key to .*: EEXIST/),
    ]);
    expect(witnessKey(await readFile(witnessKeyFile, 'utf8')).keyId).toBe(own.keyId);
    // the public key from the service's well-known address, the witness key from its setting; nothing published
    const fromService = await witness(
      [
        ...settings('from-service.json').filter((a, i, all) => a !== '--witness-key' && all[i - 1] !== '--witness-key'),
        '--public-key',
        svc.origin,
        '--no-publish',
      ],
      { SVC_WITNESS_KEY: newWitnessKey() },
    );
    expect(fromService.code, fromService.out.join('\n')).toBe(0);
    expect(fromService.out[0]).toMatch(
      new RegExp(
        `^ACCEPTED supplier ${alpha.id}: 0 entries, root \\w{64}, signed at \\S+, the first head this witness keeps; cosigned by \\w{16}$`,
      ),
    );
    expect(await cosignatures()).toEqual([]);
  });

  it(`accepts ${STEPS * PER_STEP} entries in ${STEPS} steps, cosigning each head; then refuses the rewritten log, naming both heads`, async () => {
    const own = witnessKey(await readFile(witnessKeyFile, 'utf8'));
    const state = fileWitnessState(path.join(dir, 'alpha.json'));
    const lines: string[] = [];
    await postSales(PER_STEP);
    const run = await runWitness({
      baseUrl: svc.origin,
      token: alpha.token,
      keys: keys(),
      witnessKey: own,
      ...state,
      steps: STEPS,
      // between two steps, the next hundred entries
      sleep: () => postSales(PER_STEP),
      now: () => svc.clock.now(),
      out: (line) => void lines.push(line),
    });
    expect(run.ok).toBe(true);
    expect(lines.map((l) => l.replace(/root \w{64}, signed at [\d:.TZ-]+/g, 'ROOT'))).toEqual(
      Array.from({ length: STEPS }, (_, i) =>
        i === 0
          ? `ACCEPTED supplier ${alpha.id}: ${PER_STEP} entries, ROOT, the first head this witness keeps; cosigned by ${own.keyId} and published`
          : `ACCEPTED supplier ${alpha.id}: ${(i + 1) * PER_STEP} entries, ROOT, consistent with ${i * PER_STEP} entries, ROOT; cosigned by ${own.keyId} and published`,
      ),
    );
    const accepted = (await state.load())!;
    const acceptedHead = readSignedHead(accepted.checkpoint, keys());
    expect(acceptedHead).toMatchObject({ ok: true, head: { supplier_id: alpha.id, tree_size: STEPS * PER_STEP } });
    // the service publishes the witness's latest cosignature: of the head it accepted last
    const published = await cosignatures();
    expect(published).toEqual([
      {
        witness_key: own.publicKey,
        witness_key_id: own.keyId,
        cosigned_at: svc.clock.now().toISOString(),
        checkpoint: accepted.checkpoint,
        signature: expect.stringMatching(/^[0-9a-f]{128}$/),
      },
    ]);
    expect(verifyCosignature(published[0]!)).toBe(true);

    // an insider with the ledger's own key rewrites an entry and signs every one after it again
    await svc.advance(60);
    const rows = await stored();
    const target = rows.length - 10;
    let prev = rows[target].data.chain.prev as string;
    for (let i = target; i < rows.length; i++) {
      const { chain, ...content } = rows[i].data;
      const data = i === target ? { ...content, net: content.net + 500_000 } : content;
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
    try {
      // a proof backdated to the moment the witness accepted: signed, but over the rewritten ledger
      const asOf = (acceptedHead as any).head.as_of as string;
      const backdated = (await alpha.api.get(`/balance/proof?as_of=${asOf}`)).body;
      expect(readSignedHead(backdated.checkpoint, keys()).ok).toBe(true);
      expect(backdated.head).not.toBe((acceptedHead as any).head.head);
      const between = await alpha.api.get(
        `/balance/proof/consistency?from=${STEPS * PER_STEP}&to=${backdated.tree.size}`,
      );
      expect(verifyConsistency(accepted.checkpoint, backdated.checkpoint, between.body.proof, keys()).ok).toBe(false);

      // the witness's next run refuses the head signed now, naming the one it accepted and the one offered
      const { code, out } = await witness(settings('alpha.json'));
      const offered = readSignedHead((await alpha.api.get('/balance/proof')).body.checkpoint, keys());
      expect(offered.ok && offered.head.root_hash).toBe(backdated.tree.root_hash);
      expect(code).toBe(1);
      expect(out).toEqual([
        `FORK: the ledger of ${STEPS * PER_STEP} entries does not begin with the ${STEPS * PER_STEP} the older head signed: it was rewritten\n  accepted: ${describeHead((acceptedHead as any).head)}\n  offered: ${describeHead((offered as any).head)}`,
      ]);
      // nothing kept, nothing cosigned
      expect(await state.load()).toEqual(accepted);
      expect(await cosignatures()).toEqual(published);
      // nor does the service keep a cosignature of the head it no longer holds
      const stale = await alpha.api.post(
        '/balance/cosignatures',
        own.cosign(accepted.checkpoint, svc.clock.now().toISOString()),
      );
      expect([stale.status, stale.body.code]).toEqual([409, 'ledger_chain_broken']);
    } finally {
      await withDb(svc, async (db) => {
        for (const r of rows.slice(target))
          await db.query(`update es_events set data = $2 where event_id = $1`, [r.event_id, r.data]);
      });
    }
  });

  it("keeps a cosignature only when it holds: the ledger's head, the caller's, the witness's signature, its time", async () => {
    const other = witnessKey(newWitnessKey());
    const head = (await alpha.api.get('/balance/proof')).body;
    const at = svc.clock.now().toISOString();
    const good = other.cosign(head.checkpoint, at);
    const refused = async (what: string, body: unknown, field: string) => {
      const answer = await alpha.api.post('/balance/cosignatures', body);
      expect([
        what,
        answer.status,
        answer.headers.get('content-type'),
        answer.body.code,
        answer.body.errors?.[0]?.field,
      ]).toEqual([what, 422, 'application/problem+json; charset=utf-8', 'validation_failed', field]);
    };
    const before = await cosignatures();
    await refused(
      'another key',
      { ...good, witness_key: witnessKey(newWitnessKey()).publicKey },
      'body.witness_key_id',
    );
    await refused(
      'a changed time',
      { ...good, cosigned_at: new Date(Date.parse(at) - 1).toISOString() },
      'body.signature',
    );
    await refused(
      'a changed head',
      other.cosign({ ...head.checkpoint, signed: head.checkpoint.signed.replace('"tree_size"', '"tree_size" ') }, at),
      'body.checkpoint',
    );
    await refused(
      "another supplier's head",
      other.cosign((await beta.api.get('/balance/proof')).body.checkpoint, at),
      'body.checkpoint',
    );
    await refused(
      'ahead of the service',
      other.cosign(head.checkpoint, new Date(Date.parse(at) + 6 * 60_000).toISOString()),
      'body.cosigned_at',
    );
    await refused(
      'not as toISOString writes it',
      other.cosign(head.checkpoint, at.replace('.000Z', 'Z')),
      'body.cosigned_at',
    );
    await refused('no signature', { ...good, signature: undefined }, 'body.signature');
    expect(await cosignatures()).toEqual(before);

    const kept = await alpha.api.post('/balance/cosignatures', good);
    expect([kept.status, kept.body]).toEqual([201, good]);
    const now = await cosignatures();
    expect(now).toHaveLength(2);
    expect(now).toEqual(expect.arrayContaining([...before, good]));
    expect(now.map((c) => c.witness_key_id)).toEqual([...now.map((c) => c.witness_key_id)].sort());
    // another supplier sees none of them
    expect((await beta.api.get('/balance/cosignatures')).body).toEqual({ data: [] });
  });

  it('sends the latest cosignature of each witness with the daily ledger.checkpoint', async () => {
    const hook = await alpha.api.post('/webhooks', { url: receiver.url, events: ['ledger.checkpoint'] });
    expect(hook.status, hook.text).toBe(201);
    const published = await cosignatures();
    const day = 24 * 3600 * 1000;
    const midnight = new Date(Math.ceil((svc.clock.now().getTime() + 1) / day) * day);
    await svc.advance((midnight.getTime() - svc.clock.now().getTime()) / 1000);
    await svc.drain();
    const delivered = receiver.received.find((r) => r.body.type === 'ledger.checkpoint');
    expect(delivered?.body.data).toEqual({
      ...(await alpha.api.get(`/balance/proof?as_of=${midnight.toISOString()}`)).body,
      cosignatures: published,
    });
  });
});
