import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/**
 * An exclusive lock across every process of the machine, named by a file in the temporary
 * folder: the documents' blocks use the fixed ports a reader would (4242, 4243, 8090), so two
 * runs of the suite at once take turns at them. flock(1) holds it in a child process whose
 * input is this process's pipe: released when asked, and by the kernel when this process
 * dies however it dies, so a killed run never leaves it held.
 */
export const holdMachineLock = async (name: string): Promise<() => Promise<void>> => {
  const holder = spawn(
    'flock',
    ['--exclusive', path.join(os.tmpdir(), `${name}.lock`), '-c', 'echo held && exec cat'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => holder.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.once('data', () => resolve());
    void exited.then((code) => reject(new Error(`flock ended with ${code} before it held ${name}`)));
  });
  return async () => {
    holder.stdin!.end();
    await exited;
  };
};
