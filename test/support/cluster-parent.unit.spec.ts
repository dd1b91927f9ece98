import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeLeftClusters } from './cluster-parent.js';

describe('the clusters killed runs left behind', () => {
  let parent: string;
  afterAll(async () => {
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it('are deleted once untouched for half an hour with no server; a live or recent one stays', async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'cluster-parent-'));
    const now = Date.now();
    const hourAgo = new Date(now - 60 * 60_000);
    const folder = async (name: string, touched: Date, postmasterPid?: number) => {
      const dir = path.join(parent, name);
      await mkdir(path.join(dir, 'pg'), { recursive: true });
      // postmaster.pid as PostgreSQL writes it: pid, data directory, start time, port
      if (postmasterPid !== undefined)
        await writeFile(path.join(dir, 'pg', 'postmaster.pid'), `${postmasterPid}\n${dir}/pg\n0\n54321\n`);
      await utimes(dir, touched, touched);
    };
    await folder('marketplace-test-killed', hourAgo);
    await folder('marketplace-test-stale-pid', hourAgo, 2 ** 22 + 1); // above pid_max: no such process
    await folder('marketplace-test-running', hourAgo, process.pid); // a live process, as a running server's
    await folder('marketplace-test-starting', new Date(now - 60_000));
    await folder('other-killed', hourAgo);

    const removed = await removeLeftClusters(parent, 'marketplace-test-', now);

    expect(removed.map((d) => path.basename(d)).sort()).toEqual([
      'marketplace-test-killed',
      'marketplace-test-stale-pid',
    ]);
    expect((await readdir(parent)).sort()).toEqual([
      'marketplace-test-running',
      'marketplace-test-starting',
      'other-killed',
    ]);
  });
});
