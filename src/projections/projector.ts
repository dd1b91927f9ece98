import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RecordedEvent } from '../eventstore/port.js';

type Executable = { execute(): Promise<unknown> };

/**
 * A row many events of one batch write alike (a timer each, say): a handler answers it
 * instead of writing, and the batch writes all of them with one `write` before its checkpoint.
 */
export interface Gathered<R = unknown> {
  gather: Gatherer<R>;
  row: R;
}

export interface Gatherer<R> {
  /** Writes `rows` (in the order the events came) in as few statements as it can. */
  write(db: Kysely<Database>, rows: R[]): Promise<unknown>;
  /** When the earliest of these rows falls due, for rows that are work for later (timers). */
  dueAt?(row: R): Date | undefined;
}

/** The gathered rows of one transaction, by the gatherer that writes them. */
export class Gathering {
  private readonly rows = new Map<Gatherer<unknown>, unknown[]>();
  /** The earliest due time of the rows written (timers): the loop that runs them looks then. */
  earliestDue: Date | undefined;

  add(g: Gathered): void {
    const due = g.gather.dueAt?.(g.row);
    if (due && (!this.earliestDue || due < this.earliestDue)) this.earliestDue = due;
    const rows = this.rows.get(g.gather);
    if (rows) rows.push(g.row);
    else this.rows.set(g.gather, [g.row]);
  }

  async write(db: Kysely<Database>): Promise<void> {
    for (const [gatherer, rows] of this.rows) await gatherer.write(db, rows);
    this.rows.clear();
  }
}

/**
 * A handler that hands its event (type and data) to `gatherer`, for a projector that writes
 * a whole batch's events together, in order (orders, offers).
 */
export const gatheredBy =
  <E extends EventShape>(gatherer: Gatherer<E>) =>
  (db: unknown, e: { type: string; data: unknown }): Gathered => ({
    gather: gatherer,
    row: { type: e.type, data: e.data },
  });

const isGathered = (result: unknown): result is Gathered =>
  typeof result === 'object' && result !== null && 'gather' in result && 'row' in result;

/** What a handler answers: a write it started, one to execute, a row to gather, or nothing. */
export type HandlerResult = Promise<unknown> | Executable | Gathered | undefined;

/** A member of an event union: its `type` names the shape of its `data`. */
export interface EventShape {
  type: string;
  data: unknown;
}

/** Any event: the handlers of a projector declared without its union. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- such a handler names its event's type itself
type AnyEvent = { type: string; data: any };

/** A handler of one event type, given the event as recorded with its data typed. */
export type Handler<D> = (db: Kysely<Database>, event: RecordedEvent<D>) => HandlerResult;

/**
 * Handlers by event type, each typed by the data of its type in the union `E`: a type the
 * union does not have is refused, and each handler's event is the one of its key. Events
 * of any type (`AnyEvent`) take any key with any data.
 */
export type Handlers<E extends EventShape> = string extends E['type']
  ? Record<string, Handler<E['data']>>
  : { [T in E['type']]?: Handler<Extract<E, { type: T }>['data']> };

/** A handler as the runner calls it: by the recorded event's type, whatever its data. */
export type ProjectionHandler = Handler<AnyEvent['data']>;

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

/**
 * Declares a projector: event types mapped to kysely writes, as in the style guide. With
 * its event union (`projector<OfferEvent | InventoryEvent>({...})`) each handler gets its
 * event's data typed and a key that is no event type of the union does not compile (the union
 * is given, never inferred from the handlers: without it, handlers name their events' types).
 */
export const projector = <E extends EventShape = AnyEvent>(
  definition: Omit<Projector, 'handlers'> & { handlers: NoInfer<Handlers<E>> },
): Projector => ({
  rebuildable: true,
  ...definition,
  // the runner dispatches by `event.type`, so each handler only ever sees the event of its key
  handlers: definition.handlers as Record<string, ProjectionHandler>,
});

/**
 * Applies one event; a gathered row goes to `gathering` (written by the caller), or at once
 * without one. Answers a promise only when there is something to wait for: a batch applies
 * an event to every projector that has a handler, and most of them gather a row.
 */
export const applyEvent = (
  p: Projector,
  db: Kysely<Database>,
  event: RecordedEvent,
  gathering?: Gathering,
): Promise<void> | undefined => {
  const handler = p.handlers[event.type];
  // a ledger entry the ledger refused (not signed by the service where it stands:
  // ledger-book.ts) reaches no read model and moves no process: no balance, payout or webhook
  if (!handler || (event as { refused?: string }).refused) return undefined;
  const result = handler(db, event);
  return result instanceof Promise ? result.then((r) => settle(r, db, gathering)) : settle(result, db, gathering);
};

/** What a handler answered, done: a row gathered (or written), a write executed. */
const settle = (result: unknown, db: Kysely<Database>, gathering?: Gathering): Promise<void> | undefined => {
  if (isGathered(result)) {
    if (gathering) return void gathering.add(result);
    return result.gather.write(db, [result.row]).then(() => undefined);
  }
  if (result && typeof (result as Executable).execute === 'function')
    return (result as Executable).execute().then(() => undefined);
  return undefined;
};
