import { activateOffer, createOffer } from '../commands/offers.js';
import { uploadInventory } from '../commands/inventory.js';
import { registerSupplier, revokeToken } from '../commands/suppliers.js';
import type { Services } from '../http/services.js';
import { RIVAL_MOVE_MS, type RivalOffer, RIVALS } from '../processes/sandbox-rivals.js';
import { SEED } from './demo-token.js';

/** The sandbox catalogue's game keys the rivals sell, and the price each one's wave moves around. */
const RIVAL_PRODUCTS = [
  { name: 'Starfall Odyssey', base: 1999 },
  { name: 'Iron Meridian: Deluxe Edition', base: 2999 },
  { name: 'Harbor Lights', base: 1499 },
];

/** Enough keys that sandbox orders routed to a rival do not empty it in a day of trying. */
const RIVAL_KEYS = 100;

/**
 * The rival's keys, unique to its offer, in the shapes game keys take (groups of five
 * letters and digits, three or five of them): a product whose key format names one shape
 * refuses the other, so each offer gets RIVAL_KEYS keys of its product's shape.
 */
const rivalKeys = (ref: string) =>
  Array.from({ length: RIVAL_KEYS }, (_, i) => {
    const three = `${ref}-${String(i + 1).padStart(5, '0')}-SANDB`;
    return [three, `${three}-OXKEY-RIVAL`];
  })
    .flat()
    .map((value) => ({ kind: 'text', value }));

const supplierNamed = async (services: Services, name: string) => {
  const found = await services.db.selectFrom('suppliers').select('id').where('name', '=', name).executeTakeFirst();
  if (found) return found.id;
  const { supplier, tokenId } = await registerSupplier(services.commands, name, SEED);
  // nobody signs in as a rival: the token registration issues is revoked at once
  await revokeToken(services.commands, supplier.id, tokenId, SEED);
  return supplier.id;
};

/** The rival's offer on the product, created, stocked and active; a seed stopped halfway is finished. */
const rivalOffer = async (services: Services, supplierId: string, productId: string, price: number, ref: string) => {
  const existing = await services.db
    .selectFrom('offers')
    .select(['id', 'status'])
    .where('supplier_id', '=', supplierId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  if (existing?.status === 'active') return existing.id;
  const offerId =
    existing?.id ??
    (
      await createOffer(
        services.commands,
        supplierId,
        { productId, stockMode: 'uploaded', price, externalRef: ref, lowStockThreshold: 0 },
        SEED,
      )
    ).offer.id;
  // partial: a key an earlier, stopped seed uploaded is refused as a duplicate, the rest go in
  await uploadInventory(services.commands, supplierId, offerId, 'partial', rivalKeys(ref), SEED);
  await activateOffer(services.commands, supplierId, offerId, SEED);
  return offerId;
};

/**
 * Rival suppliers with offers on the sandbox catalogue, and the timer that moves their
 * prices: competition and pricing rules can be tried on a fresh sandbox. Looked at on every
 * sandbox start, by name, so sandboxes seeded before get them too.
 */
export const seedRivals = async (services: Services): Promise<void> => {
  const products = await services.db
    .selectFrom('products')
    .select(['id', 'name'])
    .where(
      'name',
      'in',
      RIVAL_PRODUCTS.map((p) => p.name),
    )
    .where('status', '=', 'sellable')
    .execute();
  const offers: RivalOffer[] = [];
  for (const [r, rival] of RIVALS.entries()) {
    const supplierId = await supplierNamed(services, rival.name);
    for (const [p, product] of RIVAL_PRODUCTS.entries()) {
      const productId = products.find((row) => row.name === product.name)?.id;
      if (productId === undefined) continue;
      const base = product.base + rival.markup;
      const offerId = await rivalOffer(services, supplierId, productId, base, `RIV${r + 1}${p + 1}`);
      offers.push({ offerId, supplierId, base, place: r });
    }
  }
  const now = services.clock.now().getTime();
  await services.timers.schedule(
    'sandbox.rival-prices',
    'rivals',
    new Date((Math.floor(now / RIVAL_MOVE_MS) + 1) * RIVAL_MOVE_MS),
    { offers },
    { replace: true },
  );
};
