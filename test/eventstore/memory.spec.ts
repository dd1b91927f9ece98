import { InMemoryEventStore } from '../../src/eventstore/memory.js';
import { eventStoreConformance } from './conformance.js';

// the in-memory adapter is held to what every adapter does (the suite is the port's contract)
eventStoreConformance(
  'in memory',
  async () => {
    const store = new InMemoryEventStore();
    return { store, close: () => store.close() };
  },
  { appendMany: true },
);
