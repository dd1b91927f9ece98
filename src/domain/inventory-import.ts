import type { Decider } from './decider.js';
import { assertNever, DomainError } from './errors.js';
import type { RefusedLine } from './key-file.js';

/**
 * An import of a file of keys as a job of its own stream: its values are stored and its
 * refused lines known when it starts; it then records the keys on the offer's inventory a
 * chunk (`IMPORT_CHUNK` keys) at a time, each chunk's result recorded here after the chunk's upload. A job
 * stopped at any point (the process killed) goes on from the first chunk it has no result
 * for; a chunk whose upload was recorded before the stop is found on the offer's stream, and
 * never uploaded twice (its item ids follow from the import's).
 */

/**
 * Keys per chunk of an import started now: one value set, one upload recorded on the offer.
 * Ten thousand, not the API's thousand per upload: each chunk costs a state measured for the
 * cache, an append and its commit, a read model batch and a job event whatever its size, and
 * a file of 100,000 keys paid them a hundred times. The size is recorded in the job's started
 * event (imports started before it was recorded have 1,000: `inventoryImportStartedV2`).
 */
export const IMPORT_CHUNK = 10_000;

export interface ChunkResult {
  chunk: number;
  /** Keys recorded on the offer (some may be under review). */
  accepted: number;
  /** Keys refused when recorded (already in stock by then). */
  refused: RefusedLine[];
}

export interface ImportStartedData {
  importId: string;
  offerId: string;
  supplierId: string;
  fileName: string;
  /** Lines the file has, blank ones included. */
  lines: number;
  /** Keys to add: the valid lines. */
  keys: number;
  /** The keys' line numbers as runs (`lineRuns`). */
  keyLines: [number, number][];
  /** The lines refused when the file was read. */
  refused: RefusedLine[];
  /** Keys per chunk (the last may hold fewer). */
  chunkSize: number;
  at: string;
}

export type ImportEvent =
  | { type: 'InventoryImportStarted'; data: ImportStartedData }
  | { type: 'InventoryImportChunkStored'; data: ChunkResult & { importId: string; at: string } }
  | {
      type: 'InventoryImportCompleted';
      data: {
        importId: string;
        offerId: string;
        supplierId: string;
        batchId: string;
        added: number;
        refused: number;
        at: string;
      };
    };

export type ImportCommand =
  | { type: 'StartImport'; data: ImportStartedData }
  | { type: 'RecordChunk'; data: ChunkResult & { now: string } }
  | { type: 'CompleteImport'; data: { batchId: string; now: string } };

export interface ImportState extends ImportStartedData {
  status: 'running' | 'completed';
  results: ChunkResult[];
  completedAt: string | null;
}

export const chunksOf = (keys: number, chunkSize: number) => Math.ceil(keys / chunkSize);

export const addedSoFar = (s: ImportState) => s.results.reduce((n, r) => n + r.accepted, 0);
export const keysDone = (s: ImportState) => Math.min(s.keys, s.results.length * s.chunkSize);
export const refusedLines = (s: ImportState): RefusedLine[] =>
  [...s.refused, ...s.results.flatMap((r) => r.refused)].sort((a, b) => a.line - b.line);

export const importDecider: Decider<ImportState | null, ImportCommand, ImportEvent> = {
  initialState: null,

  evolve(state, event) {
    switch (event.type) {
      case 'InventoryImportStarted':
        return { ...event.data, status: 'running', results: [], completedAt: null };
      case 'InventoryImportChunkStored': {
        if (!state) return state;
        const { importId: _i, at: _a, ...result } = event.data;
        return { ...state, results: [...state.results, result] };
      }
      case 'InventoryImportCompleted':
        return state && { ...state, status: 'completed', completedAt: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'StartImport':
        // the same import started again (its request retried): nothing more to record
        return state ? [] : [{ type: 'InventoryImportStarted', data: command.data }];
      case 'RecordChunk': {
        if (!state) throw new DomainError('not_found', 'import not found');
        const { now, ...result } = command.data;
        if (result.chunk < state.results.length) return [];
        if (result.chunk !== state.results.length)
          throw new DomainError('invalid_state', `chunk ${result.chunk} comes after chunk ${state.results.length}`);
        return [{ type: 'InventoryImportChunkStored', data: { importId: state.importId, ...result, at: now } }];
      }
      case 'CompleteImport': {
        if (!state) throw new DomainError('not_found', 'import not found');
        if (state.status === 'completed') return [];
        if (state.results.length < chunksOf(state.keys, state.chunkSize))
          throw new DomainError('invalid_state', 'the import has chunks left to store');
        const added = addedSoFar(state);
        return [
          {
            type: 'InventoryImportCompleted',
            data: {
              importId: state.importId,
              offerId: state.offerId,
              supplierId: state.supplierId,
              batchId: command.data.batchId,
              added,
              refused: refusedLines(state).length,
              at: command.data.now,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
