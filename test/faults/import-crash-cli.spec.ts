import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../../src/cli/import.js';
import { clusterFolder } from '../support/cluster-parent.js';
import { createTestDatabase } from '../support/database.js';
import { client } from '../support/http.js';
import { eventually, spawnService } from './support.js';

/**
 * `npm run cli -- inventory import` following a 100,000-key import while the service is
 * SIGKILLed and started again on the same address: the command waits for it, and ends with
 * the import's result, every valid key stored once.
 */

const OPERATOR_TOKEN = `svc_op_${randomBytes(24).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');
const KEYS = 100_000;

const children: Awaited<ReturnType<typeof spawnService>>[] = [];
const dirs: string[] = [];

describe('The CLI import across a restart of the service', () => {
  afterAll(async () => {
    for (const s of children) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it(
    'keeps showing the import after the service is killed and restarted, to its result',
    { timeout: 900_000 },
    async () => {
      const databaseUrl = await createTestDatabase();
      const dataDir = await clusterFolder('import-crash-cli-');
      const files = await mkdtemp(path.join(os.tmpdir(), 'import-crash-cli-'));
      dirs.push(dataDir, files);
      const start = async (env?: Record<string, string>) => {
        const s = await spawnService({
          databaseUrl,
          dataDir,
          operatorToken: OPERATOR_TOKEN,
          secretKey: SECRET_KEY,
          env,
        });
        children.push(s);
        return s;
      };
      const first = await start();
      const operator = client(`${first.origin}/operator/v1`, OPERATOR_TOKEN);
      const supplier = await operator.post('/suppliers', { name: 'Cli Crash' });
      const product = await operator.post('/products', {
        name: 'Cli Crash',
        type: 'game_key',
        platform: 'steam',
        region: 'EU',
        status: 'sellable',
      });
      const api = client(first.baseUrl, supplier.body.token);
      const offer = await api.post('/offers', {
        product_id: product.body.id,
        stock_mode: 'uploaded',
        price: { amount: 1000, currency: 'EUR' },
        external_ref: 'CC-1',
      });
      const file = path.join(files, 'keys.txt');
      await writeFile(
        file,
        Array.from({ length: KEYS }, (_, i) => `CLI-CRASH-${String(i).padStart(6, '0')}`).join('\n'),
      );

      const lines: string[] = [];
      const running = importFile({
        baseUrl: first.origin,
        token: supplier.body.token,
        offerId: offer.body.id,
        file,
        intervalMs: 200,
        out: (line) => lines.push(line),
        stream: new Writable({ write: (_c, _e, done) => done() }),
      });
      const importId = await eventually(
        'the import started',
        async () => /^import (\S+) started/.exec(lines.find((l) => l.startsWith('import ')) ?? '')?.[1],
        120_000,
      );
      await eventually(
        'a few chunks recorded',
        async () => {
          const res = await api.get(`/offers/${offer.body.id}/inventory/imports/${importId}`);
          return res.body.done >= 3000 ? true : undefined;
        },
        120_000,
      );
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

      // the same address, so the command's next read finds the new process
      const second = await start({ PORT: new URL(first.origin).port });
      // the dead run's claim of the import's timer runs out (30 s of the service's clock)
      await client(`${second.origin}/operator/v1`, OPERATOR_TOKEN).post('/clock/advance', { seconds: 60 });
      expect(await running).toBe(0);
      expect(lines.at(-1)).toMatch(
        new RegExp(`^import ${importId}: 100000 key\\(s\\) added in batch \\S+, 0 line\\(s\\) not added$`),
      );
      const api2 = client(second.baseUrl, supplier.body.token);
      expect((await api2.get(`/offers/${offer.body.id}`)).body.stock.available).toBe(KEYS);
      expect((await api2.get(`/offers/${offer.body.id}/inventory/imports/${importId}`)).body).toMatchObject({
        keys: KEYS,
        done: KEYS,
        added: KEYS,
        refused: 0,
      });
    },
  );
});
