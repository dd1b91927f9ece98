import type { Config } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrate } from '../db/migrations.js';
import type { EventStore } from '../eventstore/port.js';
import { PostgresEventStore } from '../eventstore/postgres.js';
import { connectExternalStore } from '../eventstore/select.js';
import { EventVersions, versionedStore } from '../eventstore/upcast.js';
import { eventVersions } from '../domain/upcasters.js';
import { openDatabase } from './database.js';
import { LedgerKeyring, type LedgerKeys } from '../crypto/ledger-signing.js';
import { LedgerBook, ledgerCheckedStore } from '../projections/ledger-book.js';
import { readingKeys } from './ledger-keys.js';

/**
 * The CLI's stores, as the service has them: the event store SVC_EVENT_STORE names and the
 * Postgres of the read models, the ledger's entries checked against its keys (`keys`, or
 * the public ones the settings name: `readingKeys`), so a rebuild or an audit counts what
 * the service counts. The keys are found first, then KurrentDB is asked, so a refused start
 * starts no embedded database; both are closed when `work` ends.
 */
export const withStores = async <T>(
  config: Config,
  work: (deps: { store: EventStore; db: Db; ledger: LedgerBook }) => Promise<T>,
  /** The ledger's keys; `unchecked` for work that reads no entry (counting events). */
  keys?: (Pick<LedgerKeys, 'keyring'> & Partial<LedgerKeys>) | 'unchecked',
): Promise<T> => {
  const ledgerKeys = keys === 'unchecked' ? { keyring: new LedgerKeyring([]) } : (keys ?? (await readingKeys(config)));
  const versions = new EventVersions(eventVersions);
  const external = await connectExternalStore(config);
  const database = await openDatabase(config).catch(async (error: unknown) => {
    await external?.close();
    throw error;
  });
  const db = connect(database.url, 4);
  // events in their current shape, as the service reads them (a rebuild runs the same projectors)
  const stored = versionedStore(external ?? new PostgresEventStore(db.pool), versions);
  const ledger = new LedgerBook(stored, ledgerKeys);
  const store = keys === 'unchecked' ? stored : ledgerCheckedStore(stored, ledger);
  try {
    await migrate(db.kysely);
    return await work({ store, db, ledger });
  } finally {
    await store.close();
    await db.close();
    await database.release();
  }
};
