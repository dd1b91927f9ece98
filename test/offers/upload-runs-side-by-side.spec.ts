import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadInventory } from '../../src/commands/inventory.js';
import { StreamStates } from '../../src/commands/handle.js';
import { openValues } from '../../src/commands/inventory-values.js';
import { inventoryStream } from '../../src/commands/streams.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { newId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { freshUploadedOffer, type Supplier, textKeys } from './fixtures.js';

/**
 * Two runs of one upload at once, on two instances: the first run's owner stalled (its key's lease lapsed
 * while it still ran) and a retry took the key over. Both derive the same item ids; the
 * retry records the upload first, and the first run, deciding again, finds its items
 * already there. Its clean-up must leave the values the retry's event names.
 */
describe('two runs of one upload side by side', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  it.each(['strict', 'partial'] as const)(
    '%s: the run that lost leaves the values the other recorded',
    async (mode) => {
      const offerId = await freshUploadedOffer(svc, supplier);
      const commands = svc.services.commands;
      // the first run is held right before its append, after its values are stored
      let reached!: () => void;
      const atAppend = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const stalled = Object.create(commands.store) as EventStore;
      stalled.append = async (streamId, ...rest) => {
        if (streamId === inventoryStream(offerId)) {
          reached();
          await released;
        }
        return commands.store.append(streamId, ...rest);
      };
      const operation = newId();
      const items = textKeys(`SIDE-${mode}`, 3);
      // the first run as another instance serves it: its own store view and state cache
      const first = uploadInventory(
        { ...commands, store: stalled, states: new StreamStates() },
        supplier.id,
        offerId,
        mode,
        items,
        {},
        {
          id: operation,
          resumed: false,
        },
      ).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      await atAppend;

      const retry = await uploadInventory(
        commands,
        supplier.id,
        offerId,
        mode,
        items,
        {},
        {
          id: operation,
          resumed: true,
        },
      );
      expect(retry.accepted).toBe(3);
      release();
      const lost = await first;
      if (mode === 'strict') expect(lost).toMatchObject({ error: { code: 'inventory_rejected' } });
      else expect(lost).toMatchObject({ result: { accepted: 0 } });

      const opened = await openValues(svc.services, retry.itemIds);
      expect(retry.itemIds.map((id) => opened.get(id)?.bytes.toString())).toEqual([
        `SIDE-${mode}-0`,
        `SIDE-${mode}-1`,
        `SIDE-${mode}-2`,
      ]);
    },
  );
});
