import { afterAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness.js';
import { buy, eur, keys, uploadedOffer, troubles } from '../orders/fixtures.js';

/** Spec: sale proceeds move from pending to available after 10 minutes in the sandbox, 7 days in production. */
describe('settlement', () => {
  const services: TestService[] = [];
  afterAll(async () => {
    for (const s of services) expect(troubles(s)).toEqual([]);
    await Promise.all(services.map((s) => s.stop()));
  });

  const settlesAfter = async (env: 'sandbox' | 'production', holdingSeconds: number) => {
    const svc = await startTestService({ extraConfig: { env } });
    services.push(svc);
    const supplier = await svc.newSupplier('Settling');
    expect((await supplier.api.get('/whoami')).body.environment).toBe(env);
    const product = await svc.newProduct();
    await uploadedOffer(supplier, product.id, { price: 1000, values: keys('ST', 2) }); // 1000: 85, 915
    const deliveredAt = svc.clock.now();
    const order = await buy(svc, [{ product_id: product.id, quantity: 1 }]);
    expect(order.items[0].delivered_at).toBe(deliveredAt.toISOString());
    await svc.drain();

    const availableAt = new Date(deliveredAt.getTime() + holdingSeconds * 1000).toISOString();
    const entries = async () =>
      (await supplier.api.get('/balance/entries')).body.data.map((e: any) => [
        e.type,
        e.account,
        e.amount.amount,
        e.created_at,
        e.available_at,
      ]);
    expect(await entries()).toEqual([['sale', 'pending', 915, deliveredAt.toISOString(), availableAt]]);
    expect((await supplier.api.get('/balance')).body).toMatchObject({ pending: eur(915), available: eur(0) });

    await svc.advance(holdingSeconds - 1);
    expect((await supplier.api.get('/balance')).body).toMatchObject({ pending: eur(915), available: eur(0) });
    expect(await entries()).toHaveLength(1);

    await svc.advance(1);
    expect((await supplier.api.get('/balance')).body).toEqual({
      currency: 'EUR',
      pending: eur(0),
      available: eur(915),
      updated_at: availableAt,
    });
    expect(await entries()).toEqual([
      ['sale', 'pending', 915, deliveredAt.toISOString(), availableAt],
      ['settlement', 'pending', -915, availableAt, null],
      ['settlement', 'available', 915, availableAt, null],
    ]);
    await svc.advance(3600);
    expect(await entries()).toHaveLength(3);
  };

  it('settles a sandbox sale exactly 10 minutes after delivery, not one second earlier', () =>
    settlesAfter('sandbox', 10 * 60));

  it('settles a production sale exactly 7 days after delivery, not one second earlier', () =>
    settlesAfter('production', 7 * 24 * 3600));
});
