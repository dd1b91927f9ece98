import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../src/cli/import.js';
import { startTestService, type TestService } from '../support/harness.js';

const KEYS = 100_000;

/** What the progress bar drew, as a terminal that is not a TTY receives it. */
const screen = () => {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
};

describe('npm run cli -- inventory import', () => {
  let svc: TestService;
  let supplier: Awaited<ReturnType<TestService['newSupplier']>>;
  let dir: string;
  // the harness runs timers only when told: the import runs while the command follows it
  let pumping = true;
  let pump: Promise<void>;
  beforeAll(async () => {
    svc = await startTestService({ limits: { bulk: 100 } });
    supplier = await svc.newSupplier('Cli Keys');
    dir = await mkdtemp(path.join(os.tmpdir(), 'cli-import-'));
    pump = (async () => {
      while (pumping) {
        await svc.drain();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
  });
  afterAll(async () => {
    pumping = false;
    await pump;
    await svc?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const newOffer = async (ref: string) => {
    const product = await svc.newProduct({ name: ref });
    const offer = await supplier.api.post('/offers', {
      product_id: product.id,
      stock_mode: 'uploaded',
      price: { amount: 1000, currency: 'EUR' },
      external_ref: ref,
    });
    return offer.body.id as string;
  };

  it(
    'imports a file of 100,000 keys with a progress bar, then the refused lines as CSV',
    { timeout: 600_000 },
    async () => {
      const offerId = await newOffer('CLI-1');
      const keys = Array.from({ length: KEYS }, (_, i) => `CLI-${String(i).padStart(6, '0')}`);
      const file = path.join(dir, 'keys.csv');
      await writeFile(file, ['key', ...keys, keys[7]].join('\r\n'));
      const lines: string[] = [];
      const bar = screen();
      const code = await importFile({
        baseUrl: svc.origin,
        token: supplier.token,
        offerId,
        file,
        refusedTo: path.join(dir, 'refused.csv'),
        intervalMs: 200,
        out: (line) => lines.push(line),
        stream: bar.stream,
      });
      expect(code).toBe(0);
      expect(lines[0]).toBe('100000 key(s) to add from 100002 line(s); 2 line(s) not added:');
      expect(lines[1]).toBe('  line 1: looks like a header (•••)');
      expect(lines[2]).toMatch(/^ {2}line 100002: duplicate in the file \(\S+\)$/);
      expect(lines[3]).toMatch(/^import \S+ started \(follow it again with --import \S+\)$/);
      expect(lines[4]).toMatch(/^import \S+: 100000 key\(s\) added in batch \S+, 2 line\(s\) not added$/);
      expect(bar.text()).toContain(`/${KEYS} keys`);
      expect(await readFile(path.join(dir, 'refused.csv'), 'utf8')).toMatch(
        /^line,reason,shown\r\n1,looks like a header,•••\r\n100002,duplicate in the file,\S+\r\n$/,
      );
      expect((await supplier.api.get(`/offers/${offerId}`)).body.stock.available).toBe(KEYS);
    },
  );

  it('follows an import started earlier (--import), to its result', async () => {
    const offerId = await newOffer('CLI-2');
    const started = await supplier.api.post(`/offers/${offerId}/inventory/imports`, {
      file_name: 'few.txt',
      content: 'CLI2-0001\nCLI2-0002\n',
    });
    expect(started.status).toBe(202);
    const lines: string[] = [];
    const code = await importFile({
      baseUrl: svc.origin,
      token: supplier.token,
      offerId,
      importId: started.body.id,
      intervalMs: 100,
      out: (line) => lines.push(line),
      stream: screen().stream,
    });
    expect(code).toBe(0);
    expect(lines).toEqual([
      `import ${started.body.id}: 2 key(s) added in batch ${started.body.batch_id}, 0 line(s) not added`,
    ]);
  });
});
