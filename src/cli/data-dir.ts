import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

/**
 * The files the service keeps in SVC_DATA_DIR: generated secrets, the sandbox's demo token,
 * the embedded server's address and owner. The folder is made here, where they are written,
 * because a start given every setting (`npm run ha -- service`, a DATABASE_URL) may have no
 * other reason to make it; a start refused earlier still leaves no folder behind.
 */
export const dataFile = (config: Config, name: string): string => path.join(config.dataDir, name);

/** Writes one of them (mode 600: they hold secrets), making the folder first. */
export const writeDataFile = async (config: Config, name: string, value: string): Promise<void> => {
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(dataFile(config, name), value, { mode: 0o600 });
};

/** One of them, trimmed; undefined when it is not there (or empty). */
export const readDataFile = async (config: Config, name: string): Promise<string | undefined> => {
  const text = await readFile(dataFile(config, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text.trim() || undefined;
};
