import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, type Supplier, uploadedOffer } from '../orders/fixtures.js';
import { startTestService, type TestService } from '../support/harness.js';
import { selfSignedCertificate, startReceiver } from '../webhooks/receiver.js';

/**
 * Pricing rules and the competition view: rules against each other settle (floors or no
 * change), never loop; floors, ceilings and the hourly change limit hold; market reads
 * name no other supplier.
 */

const eur = (amount: number) => ({ amount, currency: 'EUR' });

describe('pricing rules', () => {
  const tls = selfSignedCertificate();
  let svc: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    svc = await startTestService({
      trustedCa: tls.cert,
      limits: { writes: 10_000, reads: 10_000, sync: 10_000, per_supplier: 100_000 },
    });
    receiver = await startReceiver({ tls });
  });
  afterAll(async () => {
    await svc.stop();
    await receiver.close();
  });

  let n = 0;
  const seller = async (productId: string, price: number): Promise<{ supplier: Supplier; offerId: string }> => {
    const supplier = await svc.newSupplier(`Pricing Seller ${++n}`);
    const { offerId } = await uploadedOffer(supplier, productId, {
      price,
      values: keys(`P${n}`, 3),
      externalRef: `PRICE-SKU-${n}`,
    });
    return { supplier, offerId };
  };
  const rule = async (s: { supplier: Supplier; offerId: string }, body: Record<string, unknown>) => {
    const res = await s.supplier.api.put(`/offers/${s.offerId}/pricing-rule`, { max_changes_per_hour: 60, ...body });
    expect(res.status, res.text).toBe(200);
    await svc.drain(); // throws when the repricing never settles (1000 rounds)
    return res.body;
  };
  const price = async (s: { supplier: Supplier; offerId: string }) =>
    (await s.supplier.api.get(`/offers/${s.offerId}`)).body.price.amount as number;
  const changes = async (offerId: string) =>
    (
      (await svc.services.db
        .selectFrom('es_events' as any)
        .select(['type', 'data'] as any)
        .where('stream_id' as any, '=', `offer-${offerId}`)
        .where('type' as any, '=', 'OfferPriceChanged')
        .orderBy('stream_revision' as any)
        .execute()) as { data: any }[]
    ).map((e) => e.data);

  it('two rules against each other settle: the higher floor holds, the other beats it once, and neither moves again', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const b = await seller(productId, 1000);
    await rule(a, { beat_by: { amount: 10 }, floor: eur(800), ceiling: eur(1200) });
    await rule(b, { beat_by: { amount: 10 }, floor: eur(900), ceiling: eur(1200) });
    expect(await price(b)).toBe(900);
    expect(await price(a)).toBe(890);
    const aChanges = await changes(a.offerId);
    const bChanges = await changes(b.offerId);
    // every change went down, by the rule, and each started where the previous one ended
    for (const list of [aChanges, bChanges]) {
      expect(list.every((c) => c.reason === 'pricing_rule' && c.price < c.previousPrice)).toBe(true);
      expect(list.slice(1).every((c, i) => c.previousPrice === list[i]!.price)).toBe(true);
    }
    expect(aChanges.at(-1).price).toBe(890);
    expect(bChanges.at(-1).price).toBe(900);
    // a later market event changes nothing: the market is settled
    const before = aChanges.length + bChanges.length;
    await a.supplier.api.post(`/offers/${a.offerId}/activate`);
    await svc.drain();
    expect((await changes(a.offerId)).length + (await changes(b.offerId)).length).toBe(before);
  });

  it('two rules with the same floor both end on it', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const b = await seller(productId, 990);
    await rule(a, { beat_by: { amount: 25 }, floor: eur(900), ceiling: eur(1000) });
    await rule(b, { beat_by: { percent: 1.5 }, floor: eur(900), ceiling: eur(1000) });
    expect([await price(a), await price(b)]).toEqual([900, 900]);
  });

  it('three rules settle: each stops at its floor except the lowest-floored one, which beats the next by its margin', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const b = await seller(productId, 1000);
    const c = await seller(productId, 1000);
    await rule(a, { beat_by: { amount: 10 }, floor: eur(700), ceiling: eur(1500) });
    await rule(b, { beat_by: { percent: 1 }, floor: eur(800), ceiling: eur(1500) });
    await rule(c, { beat_by: { amount: 3 }, floor: eur(900), ceiling: eur(1500) });
    expect([await price(a), await price(b), await price(c)]).toEqual([790, 800, 900]);
    // the buyer price is the winner's
    const view = (await a.supplier.api.get(`/products/${productId}/competition`)).body;
    expect(view.buyer_price).toEqual(eur(790));
  });

  it('without a routable competitor the rule keeps the price by default; the answer already shows the price the rule chose', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const set = await a.supplier.api.put(`/offers/${a.offerId}/pricing-rule`, {
      beat_by: { amount: 50 },
      floor: eur(600),
      ceiling: eur(1100),
      max_changes_per_hour: 60,
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.when_alone).toBe('keep');
    // before any timer runs: the rule's first decision is made with the request
    expect(await price(a)).toBe(1000);
    await svc.drain();
    expect(await price(a)).toBe(1000);
    expect(await changes(a.offerId)).toEqual([]);
    // a price outside the new bounds moves into them at once, and the rival beaten when it comes
    await rule(a, { beat_by: { amount: 50 }, floor: eur(600), ceiling: eur(900) });
    expect(await price(a)).toBe(900);
    const b = await seller(productId, 800);
    await svc.drain();
    expect(await price(a)).toBe(750);
    // the rival gone: the rule keeps where it is, it does not jump back up
    expect((await b.supplier.api.post(`/offers/${b.offerId}/deactivate`)).status).toBe(200);
    await svc.drain();
    expect(await price(a)).toBe(750);
    expect((await changes(a.offerId)).map((c) => [c.previousPrice, c.price])).toEqual([
      [1000, 900],
      [900, 750],
    ]);
  });

  it('while a rule is on, a price set by hand is refused with the reason and changes nothing; after DELETE it goes through', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    await rule(a, { beat_by: { amount: 50 }, floor: eur(600), ceiling: eur(1100) });
    for (const [method, path, body] of [
      ['put', `/offers/${a.offerId}/price`, { price: eur(1050) }],
      ['patch', `/offers/${a.offerId}`, { price: eur(1050), external_ref: 'OTHER' }],
    ] as const) {
      const res = await a.supplier.api[method](path, body);
      expect(res.status, res.text).toBe(409);
      expect(res.body).toMatchObject({
        code: 'pricing_rule_active',
        title: 'Price set by a pricing rule',
        detail:
          'a pricing rule sets this offer’s price: remove the rule, or change its floor and ceiling, to set the price by hand',
      });
    }
    const offer = (await a.supplier.api.get(`/offers/${a.offerId}`)).body;
    // the refused PATCH changed none of its fields
    expect(offer.price).toEqual(eur(1000));
    expect(offer.external_ref).toMatch(/^PRICE-SKU-\d+$/);
    // the same price, or the other fields alone, are no price change
    expect((await a.supplier.api.put(`/offers/${a.offerId}/price`, { price: eur(1000) })).status).toBe(200);
    expect((await a.supplier.api.patch(`/offers/${a.offerId}`, { external_ref: 'RENAMED' })).status).toBe(200);
    expect((await a.supplier.api.delete(`/offers/${a.offerId}/pricing-rule`)).status).toBe(204);
    const res = await a.supplier.api.put(`/offers/${a.offerId}/price`, { price: eur(1050) });
    expect(res.status, res.text).toBe(200);
    await svc.drain();
    expect(await price(a)).toBe(1050);
  });

  it('with when_alone ceiling and no routable competitor the price is the ceiling; a competitor above the ceiling leaves it there; one below is beaten', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    await rule(a, { beat_by: { amount: 50 }, floor: eur(600), ceiling: eur(1100), when_alone: 'ceiling' });
    expect(await price(a)).toBe(1100);
    const b = await seller(productId, 1500);
    await svc.drain();
    expect(await price(a)).toBe(1100);
    expect((await b.supplier.api.put(`/offers/${b.offerId}/price`, { price: eur(1000) })).status).toBe(200);
    await svc.drain();
    expect(await price(a)).toBe(950);
    expect((await b.supplier.api.put(`/offers/${b.offerId}/price`, { price: eur(400) })).status).toBe(200);
    await svc.drain();
    expect(await price(a)).toBe(600); // the floor
    expect((await b.supplier.api.post(`/offers/${b.offerId}/deactivate`)).status).toBe(200);
    await svc.drain();
    expect(await price(a)).toBe(1100);
    // a hand-made change is not the rule's: it carries no reason of the rule and the rule is not undone by it until the market moves
    expect((await changes(a.offerId)).map((c) => [c.previousPrice, c.price])).toEqual([
      [1000, 1100],
      [1100, 950],
      [950, 600],
      [600, 1100],
    ]);
  });

  it('at most max_changes_per_hour changes in any hour; the held-back change happens when the hour allows it', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 2000);
    const b = await seller(productId, 1000);
    await rule(a, { beat_by: { amount: 10 }, floor: eur(100), ceiling: eur(5000), max_changes_per_hour: 2 });
    expect(await price(a)).toBe(990);
    await b.supplier.api.put(`/offers/${b.offerId}/price`, { price: eur(900) });
    await svc.drain();
    expect(await price(a)).toBe(890);
    await svc.advance(600);
    await b.supplier.api.put(`/offers/${b.offerId}/price`, { price: eur(800) });
    await svc.drain();
    expect(await price(a)).toBe(890); // held back by the limit
    expect((await a.supplier.api.get(`/offers/${a.offerId}/pricing-rule`)).body).toMatchObject({
      changes_in_last_hour: 2,
      max_changes_per_hour: 2,
    });
    await svc.advance(3000 - 1); // one second before the first change is an hour old
    expect(await price(a)).toBe(890);
    await svc.advance(1);
    expect(await price(a)).toBe(790);
    const read = (await a.supplier.api.get(`/offers/${a.offerId}/pricing-rule`)).body;
    // both earlier changes are an hour old now: only this one counts
    expect(read).toMatchObject({ changes_in_last_hour: 1, last_repriced_at: svc.clock.now().toISOString() });
    expect((await changes(a.offerId)).map((c) => c.price)).toEqual([990, 890, 790]);
  });

  it('offer.repriced is delivered to the owner with the old and the new price', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const hook = await a.supplier.api.post('/webhooks', {
      url: receiver.url,
      events: ['offer.repriced'],
      description: 'prices',
    });
    expect(hook.status, hook.text).toBe(201);
    await seller(productId, 800);
    await rule(a, { beat_by: { amount: 1 }, floor: eur(500), ceiling: eur(1000) });
    const got = receiver.received.filter((r) => r.body.type === 'offer.repriced' && r.body.data.offer_id === a.offerId);
    expect(got.map((r) => r.body.data)).toEqual([
      {
        offer_id: a.offerId,
        product_id: productId,
        external_ref: expect.stringMatching(/^PRICE-SKU-/),
        price: eur(799),
        previous_price: eur(1000),
        reason: 'pricing_rule',
      },
    ]);
  });

  it('POST /pricing/simulate previews a rule before it is saved: what it would set now and why, and saves nothing', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const body = { beat_by: { amount: 25 }, floor: eur(700), ceiling: eur(1200), max_changes_per_hour: 4 };
    const preview = async (rule: Record<string, unknown>, from = 1000) => {
      const res = await a.supplier.api.post('/pricing/simulate', {
        product_id: productId,
        price: eur(from),
        pricing_rule: rule,
      });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    // alone: the price stays, or the ceiling when asked
    expect(await preview(body)).toEqual({
      gross: eur(1000),
      commission: eur(85),
      net: eur(915),
      would_be_selected: true,
      rank: 1,
      lowest_competing_price: null,
      pricing_rule: { price: eur(1000), from_price: eur(1000), changes: false, outcome: 'alone_keeps' },
    });
    expect((await preview({ ...body, when_alone: 'ceiling' })).pricing_rule).toEqual({
      price: eur(1200),
      from_price: eur(1000),
      changes: true,
      outcome: 'alone_ceiling',
    });
    await seller(productId, 900);
    await svc.drain();
    const beaten = await preview(body);
    expect(beaten).toMatchObject({
      gross: eur(875),
      rank: 1,
      would_be_selected: true,
      lowest_competing_price: eur(900),
      pricing_rule: { price: eur(875), from_price: eur(1000), changes: true, outcome: 'beats_lowest' },
    });
    expect((await preview({ ...body, floor: eur(890) })).pricing_rule.outcome).toBe('held_by_floor');
    expect((await preview({ ...body, ceiling: eur(800), floor: eur(700) })).pricing_rule).toEqual({
      price: eur(800),
      from_price: eur(1000),
      changes: true,
      outcome: 'held_by_ceiling',
    });
    // nothing was saved
    expect((await a.supplier.api.get(`/offers/${a.offerId}/pricing-rule`)).status).toBe(404);
    expect(await price(a)).toBe(1000);
    // a rule the PUT would refuse is refused here too, by field
    const bad = await a.supplier.api.post('/pricing/simulate', {
      product_id: productId,
      price: eur(1000),
      pricing_rule: { ...body, floor: eur(1300) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'body.pricing_rule.floor', message: 'must not be above ceiling' }]);
  });

  it('GET, PUT and DELETE the rule: validation, 404 for none or for another supplier, the price stays after DELETE', async () => {
    const productId = (await svc.newProduct()).id;
    const a = await seller(productId, 1000);
    const path = `/offers/${a.offerId}/pricing-rule`;
    expect((await a.supplier.api.get(path)).body.code).toBe('not_found');
    const bad = [
      { beat_by: { amount: 10 }, floor: eur(900), ceiling: eur(800), max_changes_per_hour: 5 },
      { beat_by: { amount: 10, percent: 1 }, floor: eur(100), ceiling: eur(800), max_changes_per_hour: 5 },
      { beat_by: { percent: 0.001 }, floor: eur(100), ceiling: eur(800), max_changes_per_hour: 5 },
      { beat_by: { amount: 0 }, floor: eur(100), ceiling: eur(800), max_changes_per_hour: 5 },
      { beat_by: { amount: 10 }, floor: eur(100), ceiling: eur(800), max_changes_per_hour: 0 },
      { beat_by: { amount: 10 }, floor: eur(100), ceiling: eur(800) },
    ];
    for (const body of bad) {
      const res = await a.supplier.api.put(path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await a.supplier.api.get(path)).status).toBe(404);
    expect(await price(a)).toBe(1000);
    const set = await a.supplier.api.put(path, {
      beat_by: { percent: 2.5 },
      floor: eur(100),
      ceiling: eur(900),
      max_changes_per_hour: 3,
    });
    expect(set.body).toEqual({
      offer_id: a.offerId,
      beat_by: { percent: 2.5 },
      floor: eur(100),
      ceiling: eur(900),
      max_changes_per_hour: 3,
      when_alone: 'keep',
      changes_in_last_hour: 1,
      last_repriced_at: svc.clock.now().toISOString(),
      updated_at: svc.clock.now().toISOString(),
    });
    await svc.drain();
    expect(await price(a)).toBe(900);
    const other = await svc.newSupplier('Not Yours');
    expect(
      (await other.api.put(path, { beat_by: { amount: 1 }, floor: eur(1), ceiling: eur(2), max_changes_per_hour: 1 }))
        .status,
    ).toBe(404);
    expect((await other.api.delete(path)).status).toBe(404);
    expect((await a.supplier.api.delete(path)).status).toBe(204);
    expect((await a.supplier.api.delete(path)).status).toBe(404);
    await seller(productId, 500);
    await svc.drain();
    expect(await price(a)).toBe(900);
  });
});

describe('GET /products/{product_id}/competition', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.stop());

  it("lists prices, health bands and ranks, the caller's position at a price, and no other supplier's identity", async () => {
    const productId = (await svc.newProduct()).id;
    const me = await svc.newSupplier('Me Myself');
    const rival = await svc.newSupplier('Rival Keys Ltd');
    const third = await svc.newSupplier('Third Party GmbH');
    const mine = await uploadedOffer(me, productId, { price: 1200, values: keys('M', 2), externalRef: 'MINE-1' });
    const theirs = await uploadedOffer(rival, productId, {
      price: 1000,
      values: keys('R', 2),
      externalRef: 'RIVAL-SECRET-SKU',
    });
    const empty = await uploadedOffer(third, productId, { price: 900, values: [], externalRef: 'THIRD-SKU' });
    const draft = await uploadedOffer(await svc.newSupplier('Drafty'), productId, {
      price: 100,
      values: keys('D', 1),
      activate: false,
    });

    const res = await me.api.get(`/products/${productId}/competition?price=950`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      product_id: productId,
      buyer_price: eur(1000),
      active_offers: 2,
      offers: [
        { price: eur(1000), health_band: 'excellent', routing_eligible: true, yours: false, rank: 1 },
        { price: eur(1200), health_band: 'excellent', routing_eligible: true, yours: true, rank: 2 },
        { price: eur(900), health_band: 'excellent', routing_eligible: false, yours: false, rank: null },
      ],
      position: { price: eur(950), rank: 1, would_be_selected: true, lowest_competing_price: eur(1000) },
    });
    const text = res.text;
    for (const secret of [
      rival.id,
      third.id,
      theirs.offerId,
      empty.offerId,
      draft.offerId,
      'Rival Keys',
      'Third Party',
      'RIVAL-SECRET-SKU',
      'THIRD-SKU',
      'Drafty',
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/supplier|offer_id|external_ref|name/);
    // without ?price= the position is the caller's current price
    expect((await me.api.get(`/products/${productId}/competition`)).body.position).toEqual({
      price: eur(1200),
      rank: 2,
      would_be_selected: false,
      lowest_competing_price: eur(1000),
    });
    // a supplier without an offer and without ?price= has no position, and sees no one's identity either
    const stranger = await svc.newSupplier('Stranger');
    const seen = await stranger.api.get(`/products/${productId}/competition`);
    expect(seen.body.position).toBeNull();
    expect(seen.body.offers.every((o: any) => o.yours === false)).toBe(true);
    expect(seen.text).not.toContain(me.id);
    expect(seen.text).not.toContain(mine.offerId);
    // product reads elsewhere stay identity-free too
    const product = await stranger.api.get(`/products/${productId}`);
    for (const id of [me.id, rival.id, mine.offerId, theirs.offerId]) expect(product.text).not.toContain(id);
    const sim = await stranger.api.post('/pricing/simulate', { product_id: productId, price: eur(999) });
    for (const id of [me.id, rival.id, mine.offerId, theirs.offerId]) expect(sim.text).not.toContain(id);
  });

  it('404 for an unknown product, 422 for a bad price; both problems', async () => {
    const me = await svc.newSupplier('Asker');
    const missing = await me.api.get('/products/nope/competition');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const productId = (await svc.newProduct()).id;
    for (const q of ['price=abc', 'price=0', 'price=1.5', 'other=1']) {
      const res = await me.api.get(`/products/${productId}/competition?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
  });
});
