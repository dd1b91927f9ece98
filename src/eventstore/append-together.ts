import type { AppendOptions, AppendResult, EventStore, StreamAppend } from './port.js';

/**
 * Appends to several streams: in one transaction where the store can (`appendMany`), else
 * one append after another in the order given. The second way is not atomic: a failure
 * half-way leaves the first parts written, so it serves only steps that are idempotent and
 * resumable, as every caller of `handleTogether` is (a retry decides again on the stored
 * states and writes what is still missing).
 */
export const appendTogether = async (
  store: EventStore,
  appends: StreamAppend[],
  at: Date,
  options?: AppendOptions,
): Promise<AppendResult[]> => {
  const [only] = appends;
  if (appends.length === 1 && only) return [await store.append(only.streamId, only.events, only.expected, at, options)];
  if (store.appendMany) return store.appendMany(appends, at, options);
  const results: AppendResult[] = [];
  for (const a of appends) {
    const result = await store.append(a.streamId, a.events, a.expected, at, options);
    results.push(result);
  }
  return results;
};
