import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openValues, storeValueSet } from '../../src/commands/inventory-values.js';
import { sweepValueSets } from '../../src/commands/value-set-sweep.js';
import { derivedFamily, derivedIds, newId } from '../../src/ids.js';
import { startTestService, type TestService } from '../support/harness.js';
import { freshUploadedOffer, type Supplier, textKeys, upload } from './fixtures.js';

const HOUR = 3600;

/**
 * An upload stores its sealed values before its event: a process killed in between leaves
 * a set no item names. The hourly sweep deletes such sets once they are two days old, and
 * keeps every set an upload recorded, whether or not the read models know its items yet.
 */
describe('the sweep of value sets no upload recorded', () => {
  let svc: TestService;
  let supplier: Supplier;
  beforeAll(async () => {
    svc = await startTestService();
    supplier = await svc.newSupplier();
  });
  afterAll(() => svc.stop());

  const freshOffer = () => freshUploadedOffer(svc, supplier);

  /** What an upload killed after storing its values and before its event leaves behind. */
  const leftBehind = async (offerId: string) => {
    const ids = derivedIds(newId());
    const values = [0, 1, 2].map((n) => ({ itemId: ids(n), kind: 'text' as const, content: `LOST-${n}` }));
    await storeValueSet(svc.services.commands, offerId, 0, values, svc.clock.now());
    return derivedFamily(ids(0));
  };

  /**
   * The sweep also waits an hour of real time after a set was stored (the database's own
   * clock): as if the process that stored these had been gone that long.
   */
  const storedHoursAgo = (offerId: string) =>
    svc.services.db
      .updateTable('inventory_value_sets')
      .set({ stored_at: sql`stored_at - interval '2 hours'` })
      .where('offer_id', '=', offerId)
      .execute();

  const setsOf = (offerId: string) =>
    svc.services.db
      .selectFrom('inventory_value_sets')
      .select(['family', 'checked'])
      .where('offer_id', '=', offerId)
      .orderBy('family')
      .execute();

  it('deletes a set no event names once it is two days old, and keeps the recorded upload beside it', async () => {
    const offerId = await freshOffer();
    const uploaded = await upload(supplier.api, offerId, textKeys('KEPT', 2));
    const recordedFamily = derivedFamily(uploaded.item_ids[0]!);
    const orphanFamily = await leftBehind(offerId);
    await storedHoursAgo(offerId);

    // the hourly maintenance runs through both days; before the second ends nothing is looked at
    await svc.advance(47 * HOUR);
    expect(await setsOf(offerId)).toEqual(
      [
        { family: recordedFamily, checked: false },
        { family: orphanFamily, checked: false },
      ].sort((a, b) => (a.family < b.family ? -1 : 1)),
    );

    await svc.advance(2 * HOUR);
    expect(await setsOf(offerId)).toEqual([{ family: recordedFamily, checked: true }]);
    const opened = await openValues(svc.services, uploaded.item_ids);
    expect(uploaded.item_ids.map((id) => opened.get(id)?.bytes.toString())).toEqual(['KEPT-0', 'KEPT-1']);
    // the supplier's stock is what the upload recorded
    const offer = await supplier.api.get(`/offers/${offerId}`);
    expect(offer.body.stock.available).toBe(2);
  });

  it('keeps a set its offer stream records while the read model does not know its items yet', async () => {
    const offerId = await freshOffer();
    const uploaded = await upload(supplier.api, offerId, textKeys('REBUILT', 3));
    // as while the inventory read model is rebuilt from the start: its rows not there yet
    await svc.drain();
    const forgotten = await svc.services.db.deleteFrom('inventory_items').where('offer_id', '=', offerId).execute();
    expect(forgotten.map((r) => Number(r.numDeletedRows))).toEqual([3]);
    const orphanFamily = await leftBehind(offerId);
    await storedHoursAgo(offerId);

    const deleted = await sweepValueSets(svc.services.commands, new Date(svc.clock.now().getTime() + 49 * HOUR * 1000));
    expect(deleted).toBe(1);
    const kept = await setsOf(offerId);
    expect(kept).toEqual([{ family: derivedFamily(uploaded.item_ids[0]!), checked: true }]);
    expect(kept.map((s) => s.family)).not.toContain(orphanFamily);
    const opened = await openValues(svc.services, uploaded.item_ids);
    expect(uploaded.item_ids.map((id) => opened.get(id)?.bytes.toString())).toEqual([
      'REBUILT-0',
      'REBUILT-1',
      'REBUILT-2',
    ]);

    // a second sweep finds nothing more to delete
    expect(await sweepValueSets(svc.services.commands, new Date(svc.clock.now().getTime() + 50 * HOUR * 1000))).toBe(0);
  });

  it('leaves a set stored a moment ago alone however far the clock moved, then deletes it an hour on', async () => {
    // a first upload whose process was killed: the offer has no inventory stream at all
    const offerId = await freshOffer();
    const family = await leftBehind(offerId);
    // the operator's test clock moved days ahead while an upload may still be running
    const later = new Date(svc.clock.now().getTime() + 72 * HOUR * 1000);
    expect(await sweepValueSets(svc.services.commands, later)).toBe(0);
    expect(await setsOf(offerId)).toEqual([{ family, checked: false }]);

    await storedHoursAgo(offerId);
    expect(await sweepValueSets(svc.services.commands, later)).toBe(1);
    expect(await setsOf(offerId)).toEqual([]);
  });

  it("an offer whose stream cannot be read keeps its sets for the next run; the others' are swept", async () => {
    const [unreadable, readable] = [await freshOffer(), await freshOffer()];
    const kept = await leftBehind(unreadable);
    await leftBehind(readable);
    await storedHoursAgo(unreadable);
    await storedHoursAgo(readable);
    const { store } = svc.services.commands;
    const failing = Object.create(store) as typeof store;
    failing.readStream = (streamId, from) =>
      streamId === `inventory-${unreadable}`
        ? Promise.reject(new Error('the event store did not answer'))
        : store.readStream(streamId, from);
    const later = new Date(svc.clock.now().getTime() + 49 * HOUR * 1000);

    expect(await sweepValueSets({ db: svc.services.commands.db, store: failing }, later)).toBe(1);
    expect(await setsOf(readable)).toEqual([]);
    expect(await setsOf(unreadable)).toEqual([{ family: kept, checked: false }]);

    expect(await sweepValueSets(svc.services.commands, later)).toBe(1);
    expect(await setsOf(unreadable)).toEqual([]);
  });
});
