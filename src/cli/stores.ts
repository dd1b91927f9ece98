import type { Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrate } from '../db/migrations.js';
import { KurrentDbEventStore } from '../eventstore/kurrentdb.js';
import type { EventStore } from '../eventstore/port.js';
import { PostgresEventStore } from '../eventstore/postgres.js';
import { openDatabase } from './database.js';

/**
 * The CLI's stores, as the service has them: the event store SVC_EVENT_STORE names and the
 * Postgres of the read models. KurrentDB is asked first, so a refused start starts no
 * embedded database; both are closed when `work` ends.
 */
export const withStores = async <T>(config: Config, work: (deps: { store: EventStore; db: Db }) => Promise<T>): Promise<T> => {
  const external = config.eventStore === 'kurrentdb' ? await KurrentDbEventStore.connect(config.kurrentdbUrl!) : undefined;
  const database = await openDatabase(config).catch(async (error: unknown) => {
    await external?.close();
    throw error;
  });
  const db = connect(database.url, 4);
  const store = external ?? new PostgresEventStore(db.pool);
  try {
    await migrate(db.kysely);
    return await work({ store, db });
  } finally {
    await store.close();
    await db.close();
    await database.release();
  }
};
