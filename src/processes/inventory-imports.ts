import type { CommandDeps } from '../commands/context.js';
import { runImport } from '../commands/inventory-import.js';
import type { ImportEvent } from '../domain/inventory-import.js';
import { projector } from '../projections/projector.js';
import { timerCaller } from './caller.js';
import { scheduleTimer } from './schedule.js';
import type { Timers } from './timers.js';

/**
 * An import's chunks are recorded by one durable timer per import, written with this
 * process's checkpoint: a process killed while it runs leaves the timer claimed until its
 * lease runs out, and the next run (here or on another instance) goes on from the job's
 * stream (commands/inventory-import.ts).
 */
export const importProcess = projector<ImportEvent>({
  name: 'import-process',
  version: 1,
  tables: [],
  ddl: () => '',
  rebuildable: false,
  handlers: {
    InventoryImportStarted: (db, e) => scheduleTimer('inventory.import', e.data.importId, e.data.at, {}),
  },
});

export const registerImportTimers = (timers: Timers, deps: CommandDeps) => {
  timers.on('inventory.import', async (t) => void (await runImport(deps, t.key, timerCaller(t))));
};
