import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import { createProduct } from '../commands/products.js';
import { registerSupplier } from '../commands/suppliers.js';
import type { ProductFields } from '../domain/product.js';
import { demoTokenFile } from './secrets.js';
import { type Services } from '../http/services.js';

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
 * A fresh sandbox gets a demo supplier and a few products, so the API can be tried at
 * once. The demo token is kept in the data dir (sandbox only) and shown at every start.
 */
export const seedSandbox = async (config: Config, services: Services): Promise<string | undefined> => {
  if (config.env !== 'sandbox') return undefined;
  const file = demoTokenFile(config);
  const anySupplier = await services.db.selectFrom('suppliers').select('id').limit(1).executeTakeFirst();
  if (anySupplier) return existsSync(file) ? (await readFile(file, 'utf8')).trim() : undefined;
  const caller = { correlationId: 'seed' };
  const { token } = await registerSupplier(services.commands, 'Demo Supplier', caller);
  for (const product of demoProducts) await createProduct(services.commands, product, caller);
  await writeFile(file, token, { mode: 0o600 });
  return token;
};
