import { createProduct } from '../commands/products.js';
import type { ProductFields } from '../domain/product.js';
import type { Services } from '../http/services.js';
import { SEED } from './demo-token.js';

const demoProducts: ProductFields[] = [
  { name: 'Starfall Odyssey', type: 'game_key', platform: 'steam', region: 'EU', status: 'sellable', formFields: [] },
  {
    name: 'Iron Meridian: Deluxe Edition',
    type: 'game_key',
    platform: 'steam',
    region: 'GLOBAL',
    status: 'sellable',
    formFields: [],
  },
  { name: 'Harbor Lights', type: 'game_key', platform: 'xbox', region: 'EU', status: 'sellable', formFields: [] },
  {
    name: 'Retired Classic',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'not_sellable',
    formFields: [],
  },
  {
    name: 'Crystal Legends 500 Gems',
    type: 'topup',
    platform: 'mobile',
    region: 'GLOBAL',
    status: 'sellable',
    formFields: [
      {
        key: 'user_id',
        label: 'Player ID',
        type: 'text',
        required: true,
        pattern: '^[0-9]{6}$',
        max_length: 6,
        help_text: 'Six digits, shown under Settings > Account',
        options: null,
      },
      {
        key: 'server',
        label: 'Server',
        type: 'select',
        required: true,
        pattern: null,
        max_length: null,
        help_text: null,
        options: [
          { value: 'eu', label: 'Europe' },
          { value: 'na', label: 'North America' },
        ],
      },
    ],
  },
];

/**
 * Creates the demo products the catalogue does not have yet, by name: a seed stopped halfway
 * made some of them, and the sandboxes seeded before this check have theirs under other ids.
 */
export const seedDemoProducts = async (services: Services): Promise<void> => {
  const names = demoProducts.map((p) => p.name);
  const present = await services.db.selectFrom('products').select('name').where('name', 'in', names).execute();
  const made = new Set(present.map((p) => p.name));
  for (const product of demoProducts)
    if (!made.has(product.name)) await createProduct(services.commands, product, SEED);
};
