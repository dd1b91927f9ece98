import cliProgress from 'cli-progress';
import type { Config } from '../config.js';
import { type EventStore, formatPosition, type Position } from '../eventstore/port.js';
import { readCheckpoint } from '../projections/checkpoints.js';
import { allProjectors } from '../projections/index.js';
import { rebuildProjector } from '../projections/rebuild.js';
import { withStores } from './stores.js';
import { BALANCE_EVENT_TYPES } from '../projections/ledger.js';
import { MissingLedgerKey, readingKeys } from './ledger-keys.js';

const LAG_PAGE = 5000;
const LAG_CAP = 100_000;

/** Events after `position`, counted through the port up to LAG_CAP (`>=LAG_CAP` beyond). */
const lagAfter = async (store: EventStore, position: Position): Promise<number | string> => {
  let n = 0;
  for (let after = position; n < LAG_CAP;) {
    const page = await store.readAll(after, LAG_PAGE);
    n += page.length;
    const last = page.at(-1);
    if (!last || page.length < LAG_PAGE) return n;
    after = last.position;
  }
  return `>=${LAG_CAP}`;
};

/** `projections status`: each projector's checkpoint, version and how many events it is behind. */
export const projectionsStatus = (config: Config) =>
  withStores(
    config,
    async ({ store, db }) => {
      const rows = [];
      for (const p of allProjectors) {
        const cp = await readCheckpoint(db.kysely, p.name);
        const lag = cp ? await lagAfter(store, cp.position) : null;
        rows.push({
          projector: p.name,
          position: cp ? formatPosition(cp.position) : '-',
          version: cp ? `${cp.version}${cp.version === p.version ? '' : ` (code: ${p.version})`}` : '-',
          lag: lag ?? 'not started',
        });
      }
      console.table(rows);
      return 0;
    },
    // events are counted, not read: the ledger's keys are not needed
    'unchecked',
  );

/** `projections rebuild [name]`: from position 0 into fresh tables, swapped in while the service keeps serving. */
export const projectionsRebuild = async (config: Config, name: string | undefined): Promise<number> => {
  const chosen = allProjectors.filter((p) => p.rebuildable && (!name || p.name === name));
  // a projection of ledger entries is rebuilt from those the ledger accepts: it needs its keys
  const readsLedger = chosen.some((p) => Object.keys(p.handlers).some((type) => BALANCE_EVENT_TYPES.has(type)));
  let keys: Awaited<ReturnType<typeof readingKeys>> | 'unchecked' = 'unchecked';
  if (readsLedger)
    try {
      keys = await readingKeys(config);
    } catch (error) {
      if (!(error instanceof MissingLedgerKey)) throw error;
      console.error(error.message);
      return 2;
    }
  return withStores(
    config,
    async ({ store, db }) => {
      if (chosen.length === 0) {
        console.error(
          `no rebuildable projection named ${name}; known: ${allProjectors
            .filter((p) => p.rebuildable)
            .map((p) => p.name)
            .join(', ')}`,
        );
        return 2;
      }
      for (const p of chosen) {
        const bar = new cliProgress.SingleBar(
          {
            format: `${p.name.padEnd(20)} {bar} {percentage}% | {events} events | {rate} events/s | {duration}s`,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        const started = Date.now();
        bar.start(1000, 0, { events: 0, rate: 0 });
        const end = await rebuildProjector(
          db.kysely,
          store,
          p,
          () => new Date(),
          ({ processed, fraction }) => {
            const seconds = (Date.now() - started) / 1000;
            bar.update(Math.round(fraction * 1000), {
              events: processed,
              rate: Math.round(processed / Math.max(seconds, 0.001)),
            });
          },
        );
        bar.stop();
        console.log(`${p.name}: rebuilt up to ${formatPosition(end)}`);
      }
      return 0;
    },
    keys,
  );
};
