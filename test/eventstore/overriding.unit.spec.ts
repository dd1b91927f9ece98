import { describe, expect, it } from 'vitest';
import { appendTogether } from '../../src/eventstore/append-together.js';
import { changedWrites, overriding } from '../../src/eventstore/overriding.js';
import type { AppendOptions, AppendResult, EventStore, NewEvent, StreamAppend } from '../../src/eventstore/port.js';
import { START } from '../../src/eventstore/port.js';

/** An adapter that only records what reached it: this tests the wrapper, not a store. */
const recordingAdapter = () => {
  const calls: string[] = [];
  const result = (n: number): AppendResult => ({ nextRevision: n, position: START });
  const adapter = {
    append: async (streamId: string) => {
      calls.push(`adapter.append ${streamId}`);
      return result(0);
    },
    appendMany: async (appends: StreamAppend[]) => {
      calls.push(`adapter.appendMany ${appends.map((a) => a.streamId).join(',')}`);
      return appends.map(() => result(0));
    },
  } as unknown as EventStore;
  return { adapter, calls };
};

const parts: StreamAppend[] = [
  { streamId: 'a', events: [{ type: 'E', data: {} }], expected: 'no_stream' },
  { streamId: 'b', events: [{ type: 'E', data: {} }], expected: 0 },
];
const at = new Date('2026-02-01T12:00:00.000Z');

describe('a wrapped store and appends to several streams', () => {
  it("hides the adapter's appendMany from a wrapper that replaces append alone: the parts go through the wrapper one by one", async () => {
    const { adapter, calls } = recordingAdapter();
    const wrapped = overriding(adapter, {
      append: async (streamId, events, expected, when, options) => {
        calls.push(`wrapper.append ${streamId}`);
        return adapter.append(streamId, events, expected, when, options);
      },
    });
    expect(wrapped.appendMany).toBeUndefined();
    await appendTogether(wrapped, parts, at);
    expect(calls).toEqual(['wrapper.append a', 'adapter.append a', 'wrapper.append b', 'adapter.append b']);
  });

  it("hands the adapter's appendMany on when the wrapper leaves append alone, and uses it for several parts only", async () => {
    const { adapter, calls } = recordingAdapter();
    const wrapped = overriding(adapter, { wake: () => undefined });
    await appendTogether(wrapped, parts, at);
    await appendTogether(wrapped, parts.slice(0, 1), at);
    expect(calls).toEqual(['adapter.appendMany a,b', 'adapter.append a']);
  });

  it('changes a write to one stream and a write to several alike (changedWrites)', async () => {
    // records what reached it: each part's events and the options
    const calls: string[] = [];
    const written = (a: { streamId: string; events: NewEvent[] }) => `${a.streamId}:${a.events.map((e) => e.type)}`;
    const adapter = {
      append: async (streamId: string, events: NewEvent[], _e: unknown, _at: Date, options?: AppendOptions) => {
        calls.push(`append ${written({ streamId, events })} quiet=${options?.quiet}`);
        return { nextRevision: 0, position: START };
      },
      appendMany: async (appends: StreamAppend[], _at: Date, options?: AppendOptions) => {
        calls.push(`appendMany ${appends.map(written).join(' ')} quiet=${options?.quiet}`);
        return appends.map((): AppendResult => ({ nextRevision: 0, position: START }));
      },
    } as unknown as EventStore;
    const wrapped = overriding(
      adapter,
      changedWrites(adapter, {
        event: (e) => ({ ...e, type: `${e.type}2` }),
        options: () => ({ quiet: true }),
        around: async (write) => {
          calls.push('around');
          return write();
        },
      }),
    );
    await appendTogether(wrapped, parts, at);
    await appendTogether(wrapped, parts.slice(0, 1), at);
    expect(calls).toEqual(['around', 'appendMany a:E2 b:E2 quiet=true', 'around', 'append a:E2 quiet=true']);
  });
});
