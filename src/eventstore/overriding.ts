import type { EventStore } from './port.js';

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
