import type pg from 'pg';
import type { Config } from '../config.js';
import type { KurrentDbLog } from './kurrentdb.js';
import type { EventStore } from './port.js';
import { PostgresEventStore } from './postgres.js';

/**
 * The event store SVC_EVENT_STORE names: Postgres (the tables beside the read models,
 * through `pool`) or KurrentDB at SVC_KURRENTDB_URL, which must answer now: a start on a
 * store that cannot be reached is refused with EventStoreUnreachable naming the address.
 * The KurrentDB client (gRPC and a native bridge, seconds to load on a busy machine) is
 * loaded only when it is chosen.
 */
export const connectKurrentDb = async (url: string, log?: KurrentDbLog) =>
  (await import('./kurrentdb.js')).KurrentDbEventStore.connect(url, log);

/** KurrentDB when the settings name it (its address is then required by the settings), else nothing. */
export const connectExternalStore = async (
  config: Pick<Config, 'eventStore' | 'kurrentdbUrl'>,
  log?: KurrentDbLog,
): Promise<Awaited<ReturnType<typeof connectKurrentDb>> | undefined> => {
  if (config.eventStore !== 'kurrentdb') return undefined;
  if (!config.kurrentdbUrl) throw new Error('SVC_KURRENTDB_URL is required when SVC_EVENT_STORE=kurrentdb');
  return connectKurrentDb(config.kurrentdbUrl, log);
};

export const connectEventStore = async (
  config: Pick<Config, 'eventStore' | 'kurrentdbUrl'>,
  pool: () => pg.Pool,
  log?: KurrentDbLog,
): Promise<EventStore> => (await connectExternalStore(config, log)) ?? new PostgresEventStore(pool());
