import { statfs } from 'node:fs/promises';
import os from 'node:os';

/** What a whole run writes into its cluster (about 2 GB: a database per test file), with room to spare. */
const ROOM = 4 * 1024 ** 3;
const MEMORY = '/dev/shm';

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
