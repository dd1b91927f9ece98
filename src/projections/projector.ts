import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RecordedEvent } from '../eventstore/port.js';

type Executable = { execute(): Promise<unknown> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler names its event's type where it is declared
export type ProjectionHandler = (db: Kysely<Database>, event: RecordedEvent<any>) => Promise<unknown> | Executable;

export interface Projector {
  name: string;
  /** Bump when the tables or the mapping change: the runner then rebuilds from position 0. */
  version: number;
  /** Tables it owns, created by `ddl` in the schema it is given (live, or a rebuild schema). */
  tables: string[];
  ddl(schema: string): string;
  handlers: Record<string, ProjectionHandler>;
  /** Process managers are not rebuilt: replaying them would repeat their effects. */
  rebuildable?: boolean;
}

/** Declares a projector: event types mapped to kysely writes, as in the style guide. */
export const projector = (definition: Projector): Projector => ({ rebuildable: true, ...definition });

export const applyEvent = async (p: Projector, db: Kysely<Database>, event: RecordedEvent): Promise<void> => {
  const handler = p.handlers[event.type];
  if (!handler) return;
  const result = await handler(db, event);
  if (result && typeof (result as Executable).execute === 'function') await (result as Executable).execute();
};
