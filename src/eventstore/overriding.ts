import type { AppendOptions, EventStore, NewEvent } from './port.js';

/**
 * `store` with some of its members replaced (timing, upcasting, quiet appends). The others
 * are the adapter's own, bound to it, so its private fields stay reachable. A wrapper that
 * replaces `append` but not `appendMany` hides the adapter's `appendMany`: the adapter's own
 * would write past the wrapper (unstamped, untimed, loud), so appends to several streams
 * then go through the wrapper's `append`, one after another (`appendTogether`).
 */
export const overriding = (store: EventStore, members: Partial<EventStore>): EventStore =>
  new Proxy(store, {
    get: (target, prop) => {
      if (typeof prop === 'string' && prop in members) return members[prop as keyof EventStore];
      if (prop === 'appendMany' && 'append' in members) return undefined;
      const value: unknown = Reflect.get(target, prop);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- a proxy hands on the adapter's own members as they are
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

/** How a wrapper changes every write it passes on (each part optional). */
export interface WriteChange {
  /** Each event, before it is written (its version stamped). */
  event?: (event: NewEvent) => NewEvent;
  /** The options each write goes with (quiet). */
  options?: (options: AppendOptions | undefined) => AppendOptions | undefined;
  /** Around each write, as one call (its timing). */
  around?: <T>(write: () => Promise<T>) => Promise<T>;
}

/**
 * `append`, and `appendMany` where the adapter has it, changed alike by `change`, for
 * `overriding`: a wrapper names its change once, and a write to several streams can never
 * pass it by.
 */
export const changedWrites = (store: EventStore, change: WriteChange): Pick<EventStore, 'append' | 'appendMany'> => {
  const { event } = change;
  // no copy of the events where nothing changes them
  const changed = event ? (es: NewEvent[]) => es.map(event) : (es: NewEvent[]) => es;
  const options = change.options ?? ((o: AppendOptions | undefined) => o);
  const around = change.around ?? (<T>(write: () => Promise<T>) => write());
  const many = store.appendMany?.bind(store);
  return {
    append: (streamId, events, expected, at, given) =>
      around(() => store.append(streamId, changed(events), expected, at, options(given))),
    ...(many && {
      appendMany: (appends, at, given) =>
        around(() =>
          many(event ? appends.map((a) => ({ ...a, events: changed(a.events) })) : appends, at, options(given)),
        ),
    }),
  };
};
