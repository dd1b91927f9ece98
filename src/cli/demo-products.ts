import { createProduct, updateProduct } from '../commands/products.js';
import type { KeyFormat, ProductFields } from '../domain/product.js';
import type { Services } from '../http/services.js';
import { SEED } from './demo-token.js';

/** `n` groups of 5 capital letters or digits joined by dashes: the shape of Steam's and Xbox's keys. */
const groupsOfFive = (n: number): KeyFormat => ({
  // written out, group by group: a repeated group would be a nested repetition, refused
  pattern: Array.from({ length: n }, () => '[A-Z0-9]{5}').join('-'),
  minLength: n * 6 - 1,
  maxLength: n * 6 - 1,
  description: `${n} groups of 5 capital letters or digits, joined by dashes (${Array.from({ length: n }, (_, i) => ['AAAAA', 'BBBBB', '12345', 'CCCCC', 'DDDDD'][i]).join('-')})`,
});

const demoProducts: ProductFields[] = [
  {
    name: 'Starfall Odyssey',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'sellable',
    formFields: [],
    keyFormat: groupsOfFive(3),
  },
  {
    name: 'Iron Meridian: Deluxe Edition',
    type: 'game_key',
    platform: 'steam',
    region: 'GLOBAL',
    status: 'sellable',
    formFields: [],
    keyFormat: groupsOfFive(3),
  },
  {
    name: 'Harbor Lights',
    type: 'game_key',
    platform: 'xbox',
    region: 'EU',
    status: 'sellable',
    formFields: [],
    keyFormat: groupsOfFive(5),
  },
  {
    name: 'Retired Classic',
    type: 'game_key',
    platform: 'steam',
    region: 'EU',
    status: 'not_sellable',
    formFields: [],
    keyFormat: groupsOfFive(3),
  },
  {
    name: 'Crystal Legends 500 Gems',
    type: 'topup',
    platform: 'mobile',
    region: 'GLOBAL',
    status: 'sellable',
    // a top-up has no keys
    keyFormat: null,
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
 * A demo product made before key formats gets its format, once (one the operator set stays).
 */
export const seedDemoProducts = async (services: Services): Promise<void> => {
  const names = demoProducts.map((p) => p.name);
  const present = await services.db
    .selectFrom('products')
    .select(['id', 'name', 'key_format'])
    .where('name', 'in', names)
    .execute();
  const made = new Map(present.map((p) => [p.name, p]));
  for (const product of demoProducts) {
    const row = made.get(product.name);
    if (!row) await createProduct(services.commands, product, SEED);
    else if (row.key_format === null && product.keyFormat)
      await updateProduct(services.commands, row.id, { keyFormat: product.keyFormat }, SEED);
  }
};
