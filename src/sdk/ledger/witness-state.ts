import { readFile, rename, writeFile } from 'node:fs/promises';
import type { WitnessState } from './witness.js';

/**
 * A witness's last accepted head, kept in a JSON file: read when a run begins, replaced whole
 * (written beside it, then renamed over it) when a head is accepted, so an interrupted write
 * never leaves a witness that remembers half a head. A file that is not there is a witness
 * that accepted nothing yet; one that cannot be read is an error, never a fresh start (a
 * fresh start would accept whatever the service offers).
 */
export const fileWitnessState = (file: string) => ({
  load: async (): Promise<WitnessState | undefined> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const state = JSON.parse(text) as WitnessState;
    if (typeof state?.checkpoint?.signed !== 'string')
      throw new Error(`${file} holds no accepted head (a checkpoint with its signed text)`);
    return state;
  },
  save: async (state: WitnessState): Promise<void> => {
    const next = `${file}.next`;
    await writeFile(next, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    await rename(next, file);
  },
});
