import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoProducts } from '../../src/cli/demo-products.js';
import { seedRivals } from '../../src/cli/sandbox-rivals.js';
import { RIVAL_MOVE_MS, rivalPrice } from '../../src/processes/sandbox-rivals.js';
import { uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });

/**
 * The sandbox's rivals: seeded with the catalogue, their prices moved on the service's clock,
 * so a new supplier meets competition on day one and a pricing rule answers it.
 */
describe('sandbox rival offers', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    await seedDemoProducts(svc.services);
    await seedRivals(svc.services);
  });
  afterAll(() => svc.stop());

  const productNamed = async (name: string) =>
    (await svc.services.db.selectFrom('products').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const competition = async (api: any, productId: string) => (await api.get(`/products/${productId}/competition`)).body;

  it('two rival suppliers sell each sellable game key of the catalogue, stocked and active; a second seed adds nothing', async () => {
    const me = await svc.newSupplier('Newcomer');
    for (const [name, prices] of [
      ['Starfall Odyssey', [1999, 2149]],
      ['Iron Meridian: Deluxe Edition', [2999, 3149]],
      ['Harbor Lights', [1499, 1649]],
    ] as const) {
      const seen = await competition(me.api, await productNamed(name));
      expect(
        seen.offers.map((o: any) => [o.price.amount, o.routing_eligible, o.yours]),
        name,
      ).toEqual([
        [prices[0], true, false],
        [prices[1], true, false],
      ]);
    }
    // the top-up and the product not on sale get no rival
    expect((await competition(me.api, await productNamed('Retired Classic'))).offers).toEqual([]);
    expect((await competition(me.api, await productNamed('Crystal Legends 500 Gems'))).offers).toEqual([]);
    const count = async () =>
      (await svc.services.db.selectFrom('offers').select('id').execute()).length +
      (await svc.services.db.selectFrom('suppliers').select('id').execute()).length;
    const before = await count();
    await seedRivals(svc.services);
    expect(await count()).toBe(before);
    // nobody signs in as a rival: no token of theirs works
    const rivals = await svc.services.db
      .selectFrom('suppliers')
      .select('id')
      .where('name', 'like', 'Sandbox Rival %')
      .execute();
    expect(rivals).toHaveLength(2);
    const live = await svc.services.db
      .selectFrom('supplier_tokens')
      .select('supplier_id')
      .where(
        'supplier_id',
        'in',
        rivals.map((r) => r.id),
      )
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it('rival prices move every ten minutes on the clock, and a pricing rule follows them', async () => {
    const productId = await productNamed('Starfall Odyssey');
    const me = await svc.newSupplier('Rule Tryer');
    const { offerId } = await uploadedOffer(me, productId, {
      price: 2500,
      values: ['TRYKE-YSOFA-A0001', 'TRYKE-YSOFA-A0002', 'TRYKE-YSOFA-A0003'],
    });
    const set = await me.api.put(`/offers/${offerId}/pricing-rule`, {
      beat_by: { amount: 1 },
      floor: eur(1000),
      ceiling: eur(3000),
      max_changes_per_hour: 60,
    });
    expect(set.status, set.text).toBe(200);
    await svc.drain();
    const rivalsAt = (at: Date) => [rivalPrice(1999, 0, at), rivalPrice(2149, 1, at)];
    const lowestAt = (at: Date) => Math.min(...rivalsAt(at));
    // the seed's prices are the base ones; the first move comes at the next ten-minute mark
    expect((await me.api.get(`/offers/${offerId}`)).body.price).toEqual(eur(1998));
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const now = svc.clock.now().getTime();
      await svc.advance(Math.ceil(((Math.floor(now / RIVAL_MOVE_MS) + 1) * RIVAL_MOVE_MS - now) / 1000));
      const at = svc.clock.now();
      const rivals = (await competition(me.api, productId)).offers
        .filter((o: any) => !o.yours)
        .map((o: any) => o.price.amount)
        .sort((a: number, b: number) => a - b);
      expect(rivals).toEqual(rivalsAt(at).sort((a, b) => a - b));
      expect((await me.api.get(`/offers/${offerId}`)).body.price).toEqual(eur(lowestAt(at) - 1));
      seen.push(lowestAt(at));
    }
    // the rivals' lowest price did move over the four periods
    expect(new Set(seen).size).toBeGreaterThan(1);
  });
});
