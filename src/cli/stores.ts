import type { Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrate } from '../db/migrations.js';
import type { EventStore } from '../eventstore/port.js';
import { PostgresEventStore } from '../eventstore/postgres.js';
import { connectKurrentDb } from '../eventstore/select.js';
import { EventVersions, versionedStore } from '../eventstore/upcast.js';
import { eventVersions } from '../domain/upcasters.js';
import { openDatabase } from './database.js';

/**
 * The CLI's stores, as the service has them: the event store SVC_EVENT_STORE names and the
 * Postgres of the read models. KurrentDB is asked first, so a refused start starts no
 * embedded database; both are closed when `work` ends.
 */
export const withStores = async <T>(
  config: Config,
  work: (deps: { store: EventStore; db: Db }) => Promise<T>,
): Promise<T> => {
  const versions = new EventVersions(eventVersions);
  const external = config.eventStore === 'kurrentdb' ? await connectKurrentDb(config.kurrentdbUrl!) : undefined;
  const database = await openDatabase(config).catch(async (error: unknown) => {
    await external?.close();
    throw error;
  });
  const db = connect(database.url, 4);
  // events in their current shape, as the service reads them (a rebuild runs the same projectors)
  const store = versionedStore(external ?? new PostgresEventStore(db.pool), versions);
  try {
    await migrate(db.kysely);
    return await work({ store, db });
  } finally {
    await store.close();
    await db.close();
    await database.release();
  }
};
