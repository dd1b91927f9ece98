import cliProgress from 'cli-progress';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { connect } from '../db/connect.js';
import { migrate } from '../db/migrations.js';
import { formatPosition } from '../eventstore/port.js';
import { PostgresEventStore } from '../eventstore/postgres.js';
import { readCheckpoint } from '../projections/checkpoints.js';
import { allProjectors } from '../projections/index.js';
import { rebuildProjector } from '../projections/rebuild.js';
import { openDatabase } from './database.js';

const withDatabase = async <T>(config: Config, work: (db: ReturnType<typeof connect>) => Promise<T>): Promise<T> => {
  const database = await openDatabase(config);
  const db = connect(database.url, 4);
  try {
    await migrate(db.kysely);
    return await work(db);
  } finally {
    await db.close();
    await database.release();
  }
};

/** `projections status`: each projector's checkpoint, version and how many events it is behind. */
export const projectionsStatus = (config: Config) =>
  withDatabase(config, async (db) => {
    const rows = [];
    for (const p of allProjectors) {
      const cp = await readCheckpoint(db.kysely, p.name);
      const lag = cp
        ? Number(
            (
              await sql<{ n: string }>`select count(*) as n from es_events
                where (transaction_id, position) > (${cp.position.commit.toString()}::text::xid8, ${cp.position.prepare.toString()}::bigint)`.execute(db.kysely)
            ).rows[0]!.n,
          )
        : null;
      rows.push({
        projector: p.name,
        position: cp ? formatPosition(cp.position) : '-',
        version: cp ? `${cp.version}${cp.version === p.version ? '' : ` (code: ${p.version})`}` : '-',
        lag: lag ?? 'not started',
      });
    }
    console.table(rows);
    return 0;
  });

/** `projections rebuild [name]`: from position 0 into fresh tables, swapped in while the service keeps serving. */
export const projectionsRebuild = (config: Config, name: string | undefined) =>
  withDatabase(config, async (db) => {
    const chosen = allProjectors.filter((p) => p.rebuildable && (!name || p.name === name));
    if (chosen.length === 0) {
      console.error(`no rebuildable projection named ${name}; known: ${allProjectors.filter((p) => p.rebuildable).map((p) => p.name).join(', ')}`);
      return 2;
    }
    const store = new PostgresEventStore(db.pool);
    for (const p of chosen) {
      const bar = new cliProgress.SingleBar(
        { format: `${p.name.padEnd(20)} {bar} {percentage}% | {value}/{total} events | {rate} events/s | {duration}s`, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      const started = Date.now();
      bar.start(1, 0, { rate: 0 });
      const end = await rebuildProjector(db.kysely, store, p, () => new Date(), ({ processed, total }) => {
        const seconds = (Date.now() - started) / 1000;
        bar.setTotal(Math.max(total, 1));
        bar.update(processed, { rate: Math.round(processed / Math.max(seconds, 0.001)) });
      });
      bar.stop();
      console.log(`${p.name}: rebuilt up to ${formatPosition(end)}`);
    }
    await store.close();
    return 0;
  });
