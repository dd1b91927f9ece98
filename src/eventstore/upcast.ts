/**
 * Event versions. An event's data keeps the shape it was written with forever; when a type's
 * shape changes, its current version goes up by one and an upcaster turns data of the
 * version before into the new shape. Reads run an older event through the chain
 * (v1 -> v2 -> ... -> current) before anyone sees it, so deciders, projectors and process
 * managers only ever know the current shape; appends write the current version.
 *
 * Generic on purpose: the table of types, versions and upcasters belongs to the domain
 * (src/domain/upcasters.ts) and is handed in where the service is assembled, so the event
 * store never imports the domain.
 */
import { changedWrites, overriding } from './overriding.js';
import {
  type EventStore,
  MAX_SCHEMA_VERSION,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
} from './port.js';

/** Turns the data of one version into the data of the next. Pure. */
export type Upcaster = (data: unknown) => unknown;

export interface EventTypeVersions {
  /** The version appends write. */
  readonly current: number;
  /** `upcast[n]` turns version n into n + 1: one for every n from 1 to current - 1. */
  readonly upcast: Readonly<Record<number, Upcaster>>;
}

/** Event types whose shape changed; a type that is not listed is at version 1. */
export type EventVersionTable = Readonly<Record<string, EventTypeVersions>>;

export class EventVersions {
  constructor(private readonly table: EventVersionTable) {
    // a gap in a chain is found when the service starts, not when the first old event is read
    for (const [type, versions] of Object.entries(table)) {
      if (!Number.isInteger(versions.current) || versions.current < 1 || versions.current > MAX_SCHEMA_VERSION)
        throw new Error(
          `event type ${type}: current version must be an integer from 1 to ${MAX_SCHEMA_VERSION}, not ${String(versions.current)}`,
        );
      for (let v = 1; v < versions.current; v++) this.hook(type, versions, v);
    }
  }

  /** The version an append of `type` writes. */
  current(type: string): number {
    return this.table[type]?.current ?? 1;
  }

  /**
   * The event with its data in the current shape of its type, and that version; the same
   * object when it is current already. An event newer than this code knows is refused:
   * folding a shape it cannot read would be silently wrong.
   */
  upcast<T = unknown>(event: RecordedEvent<T>): RecordedEvent<T> {
    const current = this.current(event.type);
    if (event.schemaVersion === current) return event;
    if (event.schemaVersion > current)
      throw new Error(
        `event ${event.id} (${event.type}) has schema version ${event.schemaVersion}, newer than this release knows (${current}): run a release that knows it`,
      );
    const versions = this.table[event.type]!;
    let data: unknown = event.data;
    for (let v = event.schemaVersion; v < current; v++) data = this.hook(event.type, versions, v)(data);
    return { ...event, data: data as T, schemaVersion: current };
  }

  /** The event to append, stamped with its type's current version. */
  stamp(event: NewEvent): NewEvent {
    const current = this.current(event.type);
    // code writes the shape it knows, which is the current one; anything else is a bug
    if (event.schemaVersion !== undefined && event.schemaVersion !== current)
      throw new Error(
        `event type ${event.type}: an append writes the current version ${current}, not ${event.schemaVersion}`,
      );
    return { ...event, schemaVersion: current };
  }

  private hook(type: string, versions: EventTypeVersions, from: number): Upcaster {
    const hook = versions.upcast[from];
    if (typeof hook !== 'function')
      throw new Error(`event type ${type}: no upcaster from version ${from} to ${from + 1}`);
    return hook;
  }
}

/**
 * Wraps an event store so every read hands out events in their current shape and every
 * append writes its types' current versions: one place, so no reader (commands, projectors,
 * process managers, the CLI) can forget. A wrapper like measuredStore, not an adapter edit.
 */
export const versionedStore = (store: EventStore, versions: EventVersions): EventStore => {
  const up = (events: RecordedEvent[]) => events.map((e) => versions.upcast(e));
  return overriding(store, {
    ...changedWrites(store, { event: (e) => versions.stamp(e) }),
    readStream: async (streamId, fromRevision) => up(await store.readStream(streamId, fromRevision)),
    readAll: async (after, limit) => up(await store.readAll(after, limit)),
    // a refused event fails the batch: the subscriber's onError hears it, and the runner retries
    subscribe: (options: SubscribeOptions) =>
      store.subscribe({ ...options, onEvents: async (events) => options.onEvents(up(events)) }),
  });
};
