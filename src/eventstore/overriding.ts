import type { EventStore } from './port.js';

/**
 * `store` with some of its members replaced (timing, upcasting, quiet appends). The others
 * are the adapter's own, bound to it, so its private fields stay reachable.
 */
export const overriding = (store: EventStore, members: Partial<EventStore>): EventStore =>
  new Proxy(store, {
    get: (target, prop) => {
      if (typeof prop === 'string' && prop in members) return members[prop as keyof EventStore];
      const value: unknown = Reflect.get(target, prop);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- a proxy hands on the adapter's own members as they are
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
