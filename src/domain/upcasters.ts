/**
 * The event types whose data changed shape since they were first written: each with its
 * current version and one upcaster per older version (`upcast[n]` turns version n into
 * n + 1). A type that is not listed is at version 1. Deciders, projectors and process
 * managers see only the current shape; the event store runs older events through the chain
 * on every read (src/eventstore/upcast.ts, wired in where the service is assembled).
 *
 * To change a type's shape: raise its `current`, add the upcaster from the old version, and
 * change the type and the code that writes it. Never edit an upcaster that has shipped: events
 * of its version exist. Balance-stream events are hash-chained over their stored content,
 * so they never get an upcaster; a new shape for them is a new event type.
 *
 * Pure, and without imports from outside the domain: this is the shape the event store's
 * EventVersionTable expects.
 */
export interface EventTypeVersions {
  readonly current: number;
  readonly upcast: Readonly<Record<number, (data: unknown) => unknown>>;
}

/** Today every event type is at version 1. */
export const eventVersions: Readonly<Record<string, EventTypeVersions>> = {};
