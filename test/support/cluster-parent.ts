import { chmod, mkdtemp, readdir, rm, stat, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runningServer } from '../../src/db/embedded.js';

/** What a whole run writes into its cluster (about 2 GB: a database per test file), with room to spare. */
const ROOM = 4 * 1024 ** 3;
const MEMORY = '/dev/shm';
/** Older than this and with no server running, a run's cluster folder was left by a run that was killed. */
const STALE_MS = 30 * 60_000;

/**
 * Where the run's PostgreSQL cluster goes: a memory file system when the machine has one
 * with room, else the temporary folder. On a disk, copying the template for each test file
 * was I/O-bound (0.3 s of wall and of the kernel's CPU per copy), each commit waited for its
 * flush, and the server's stop at the end wrote out 2 GB for a cluster about to be deleted.
 * The server still flushes as it always does (fsync stays on); a killed server keeps what
 * it wrote, as on a disk, since only the machine's own crash would lose a memory file system.
 * `MARKETPLACE_TEST_PGDIR` names another folder.
 */
export const clusterParent = async (): Promise<string> => {
  const chosen = process.env.MARKETPLACE_TEST_PGDIR;
  if (chosen) return chosen;
  try {
    const fs = await statfs(MEMORY);
    if (fs.bavail * fs.bsize >= ROOM) return MEMORY;
  } catch {
    // no such file system here (not Linux, or a container without it)
  }
  return os.tmpdir();
};

/**
 * A new folder named `prefix…` under `clusterParent()` for a cluster, or for a folder that
 * holds one: open to others, since the server runs as its own user when we are root.
 */
export const clusterFolder = async (prefix: string): Promise<string> => {
  const dir = await mkdtemp(path.join(await clusterParent(), prefix));
  await chmod(dir, 0o755);
  return dir;
};

/**
 * Deletes the clusters that runs killed before their teardown left under `parent` (in
 * memory they would hold the machine's RAM until it restarts): folders named `prefix…` whose
 * server is not running and that no run has touched for half an hour, so that a run still
 * setting its cluster up beside this one keeps it.
 */
export const removeLeftClusters = async (parent: string, prefix: string, now = Date.now()): Promise<string[]> => {
  const removed: string[] = [];
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const dir = path.join(parent, name);
    const touched = await stat(dir).then(
      (s) => s.mtimeMs,
      () => undefined,
    );
    if (touched === undefined || now - touched < STALE_MS) continue;
    if (await runningServer(path.join(dir, 'pg'))) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
};
