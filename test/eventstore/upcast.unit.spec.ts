import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/eventstore/port.js';
import { EventVersions, type Upcaster } from '../../src/eventstore/upcast.js';

const recorded = (type: string, schemaVersion: number, data: unknown): RecordedEvent => ({
  id: '01JAAAAAAAAAAAAAAAAAAAAAAA',
  streamId: 'parcel-1',
  revision: 0,
  position: { commit: 1n, prepare: 1n },
  type,
  data,
  metadata: { correlation_id: 'c-1' },
  schemaVersion,
  createdAt: new Date('2026-02-01T12:00:00.000Z'),
});

// v1 { grams }, v2 { weight: { amount, unit } }, v3 adds the carrier the v1/v2 writers never knew
const calls: string[] = [];
const v1to2: Upcaster = (data) => {
  calls.push('1->2');
  return { weight: { amount: (data as { grams: number }).grams, unit: 'g' } };
};
const v2to3: Upcaster = (data) => {
  calls.push('2->3');
  return { ...(data as object), carrier: 'unknown' };
};
const versions = new EventVersions({ ParcelWeighed: { current: 3, upcast: { 1: v1to2, 2: v2to3 } } });

describe('event versions: the upcaster chain', () => {
  it('brings a v1 event to v3 through both hooks, in order, keeping everything but data and version', () => {
    calls.length = 0;
    const old = recorded('ParcelWeighed', 1, { grams: 1200 });
    const up = versions.upcast(old);
    expect(calls).toEqual(['1->2', '2->3']);
    expect(up).toEqual({ ...old, data: { weight: { amount: 1200, unit: 'g' }, carrier: 'unknown' }, schemaVersion: 3 });
    // the stored event is not touched
    expect(old).toEqual(recorded('ParcelWeighed', 1, { grams: 1200 }));
  });

  it('runs a v2 event through the last hook only', () => {
    calls.length = 0;
    const up = versions.upcast(recorded('ParcelWeighed', 2, { weight: { amount: 5, unit: 'kg' } }));
    expect(calls).toEqual(['2->3']);
    expect(up.data).toEqual({ weight: { amount: 5, unit: 'kg' }, carrier: 'unknown' });
    expect(up.schemaVersion).toBe(3);
  });

  it('hands a current event over as it is, and a type without an entry is at version 1', () => {
    calls.length = 0;
    const current = recorded('ParcelWeighed', 3, { weight: { amount: 1, unit: 'g' }, carrier: 'dhl' });
    expect(versions.upcast(current)).toBe(current);
    const plain = recorded('SupplierRegistered', 1, { name: 'Acme' });
    expect(versions.upcast(plain)).toBe(plain);
    expect(versions.current('SupplierRegistered')).toBe(1);
    expect(calls).toEqual([]);
  });

  it('refuses an event newer than the table knows, naming the event, its type and both versions', () => {
    expect(() => versions.upcast(recorded('ParcelWeighed', 4, {}))).toThrow(
      'event 01JAAAAAAAAAAAAAAAAAAAAAAA (ParcelWeighed) has schema version 4, newer than this release knows (3)',
    );
    expect(() => versions.upcast(recorded('SupplierRegistered', 2, {}))).toThrow(
      '(SupplierRegistered) has schema version 2, newer than this release knows (1)',
    );
  });

  it('fails loudly when a hook of the chain is missing, naming the type and the version', () => {
    expect(() => new EventVersions({ ParcelWeighed: { current: 3, upcast: { 1: v1to2 } } })).toThrow(
      'event type ParcelWeighed: no upcaster from version 2 to 3',
    );
    expect(() => new EventVersions({ ParcelWeighed: { current: 2, upcast: { 2: v2to3 } } })).toThrow(
      'event type ParcelWeighed: no upcaster from version 1 to 2',
    );
    expect(
      () => new EventVersions({ ParcelWeighed: { current: 2, upcast: { 1: 'nope' as unknown as Upcaster } } }),
    ).toThrow('event type ParcelWeighed: no upcaster from version 1 to 2');
  });

  it('refuses a current version that is not an integer from 1 up', () => {
    for (const current of [0, -1, 1.5, 40_000])
      expect(() => new EventVersions({ T: { current, upcast: {} } })).toThrow(
        `event type T: current version must be an integer from 1 to 32767, not ${current}`,
      );
  });

  it('stamps an append with its type current version; an append of another version is refused', () => {
    expect(versions.stamp({ type: 'ParcelWeighed', data: {} })).toEqual({
      type: 'ParcelWeighed',
      data: {},
      schemaVersion: 3,
    });
    expect(versions.stamp({ type: 'ParcelWeighed', data: {}, schemaVersion: 3 }).schemaVersion).toBe(3);
    expect(versions.stamp({ type: 'Other', data: {} }).schemaVersion).toBe(1);
    expect(() => versions.stamp({ type: 'ParcelWeighed', data: {}, schemaVersion: 1 })).toThrow(
      'event type ParcelWeighed: an append writes the current version 3, not 1',
    );
  });
});
