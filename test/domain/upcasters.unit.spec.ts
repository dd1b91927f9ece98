import { describe, expect, it } from 'vitest';
import { eventVersions } from '../../src/domain/upcasters.js';
import { EventVersions } from '../../src/eventstore/upcast.js';
import { BALANCE_EVENT_TYPES } from '../../src/projections/ledger.js';

describe('the domain table of event versions', () => {
  it('is a complete chain for every listed type (the service refuses to start otherwise)', () => {
    expect(() => new EventVersions(eventVersions)).not.toThrow();
  });

  it('never upcasts a balance-stream event: the ledger chain covers their stored content', () => {
    expect(Object.keys(eventVersions).filter((type) => BALANCE_EVENT_TYPES.has(type))).toEqual([]);
    expect(BALANCE_EVENT_TYPES.size).toBeGreaterThan(0);
  });
});
