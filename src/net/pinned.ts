import type { LookupAddress, LookupOneOptions } from 'node:dns';
import net from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { addressRefusal, defaultResolve, type TargetPolicy } from './targets.js';

/**
 * Outbound connections that use the address they checked. Resolving a name once to check
 * it and again to connect lets a name answer a public address to the check and a private
 * one to the connection (DNS rebinding). Here the connection's own look-up is the check:
 * the host is resolved once, every address judged, and the socket connects to those
 * addresses only. An address literal is checked before the call (checkTargetBeforeCall).
 */
export class TargetRefused extends Error {
  readonly code = 'ERR_TARGET_REFUSED';
  constructor(readonly reason: string) {
    super(reason);
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls.connect that resolves with the policy and refuses what it must. */
export const checkedLookup =
  (policy: TargetPolicy) =>
  (hostname: string, options: LookupOneOptions & { all?: boolean }, callback: LookupCallback): void => {
    const resolve = policy.resolve ?? defaultResolve;
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new TargetRefused(`host ${hostname} does not resolve`), '');
        for (const address of addresses) {
          const refusal = addressRefusal(hostname, address, policy);
          if (refusal) return callback(new TargetRefused(refusal), '');
        }
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => net.isIP(a) === options.family)
            : addresses;
        if (wanted.length === 0)
          return callback(new TargetRefused(`host ${hostname} has no IPv${options.family} address`), '');
        if (options.all)
          return callback(
            null,
            wanted.map((address) => ({ address, family: net.isIP(address) })),
          );
        callback(null, wanted[0]!, net.isIP(wanted[0]!));
      },
      () => callback(new TargetRefused(`host ${hostname} does not resolve`), ''),
    );
  };

const dispatchers = new WeakMap<TargetPolicy, Dispatcher>();

/** One connection pool per policy, every new connection resolved through checkedLookup. */
export const outboundDispatcher = (policy: TargetPolicy): Dispatcher => {
  let dispatcher = dispatchers.get(policy);
  if (!dispatcher) {
    dispatcher = new Agent({
      connect: { lookup: checkedLookup(policy) as never, ...(policy.ca && { ca: policy.ca }) },
    });
    dispatchers.set(policy, dispatcher);
  }
  return dispatcher;
};

/** The refusal behind a failed call, when the target was refused at connect time. */
export const refusalOf = (error: unknown): string | undefined => {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof TargetRefused) return e.reason;
  return undefined;
};
