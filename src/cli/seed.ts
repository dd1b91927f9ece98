import type { Config } from '../config.js';
import { issueToken, registerSupplier, revokeToken } from '../commands/suppliers.js';
import { hashToken, keyedTokenHash } from '../crypto/tokens.js';
import { faultPoint } from '../faults.js';
import { type Services } from '../http/services.js';
import { readDataFile, writeDataFile } from './data-dir.js';
import { seedDemoProducts } from './demo-products.js';
import { seedRivals } from './sandbox-rivals.js';
import { DEMO_TOKEN_FILE, SEED, seedTokens } from './demo-token.js';

const DEMO_SUPPLIER = 'Demo Supplier';

/**
 * A fresh sandbox gets a demo supplier, a few products and rival suppliers selling some
 * of them at moving prices, so the API, competition and pricing rules can be tried at once. The demo token is kept in the data dir (sandbox only), written last, and shown at
 * every start. The demo supplier is the sandbox's first supplier: the seed registers it
 * before the instance listens.
 */
export const seedSandbox = async (config: Config, services: Services): Promise<string | undefined> => {
  if (config.env !== 'sandbox') return undefined;
  // the suppliers read model tells a seeded sandbox, so it must show what the log holds: a
  // start after a crash, or after a projector's rebuild, can find it behind
  if (!(await services.projections.waitFor(await services.store.head(), config.readModelWaitMs))) {
    services.log.warn('the read models are still catching up: the demo supplier is looked at on the next start');
    return readDataFile(config, DEMO_TOKEN_FILE);
  }
  const first = await services.db
    .selectFrom('suppliers')
    .select(['id', 'name'])
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!first) {
    const { token } = await registerSupplier(services.commands, DEMO_SUPPLIER, SEED);
    faultPoint('before-demo-token-kept');
    await seedDemoProducts(services);
    await seedRivals(services);
    await writeDataFile(config, DEMO_TOKEN_FILE, token);
    return token;
  }
  if (first.name !== DEMO_SUPPLIER) return undefined;
  // a sandbox seeded before the rivals existed, or a seed stopped before they were made
  await seedRivals(services);
  return keptDemoToken(config, services, first.id);
};

/**
 * The demo supplier's token as the data folder keeps it. The folder and the database can
 * part: a start stopped between registering the supplier and writing the file, a folder
 * removed, one folder used with two databases. With no token kept that the seed issued
 * here, a new one is made (`renewDemoToken`) and the seed's earlier tokens are revoked:
 * nobody was shown them, or the file that held them is gone. Tokens the operator issued
 * for the demo supplier stay.
 */
const keptDemoToken = async (config: Config, services: Services, supplierId: string): Promise<string> => {
  const live = await seedTokens(services, supplierId);
  const kept = await readDataFile(config, DEMO_TOKEN_FILE);
  const keptId =
    kept === undefined ? undefined : live.get(keyedTokenHash(services.commands.secretKey, hashToken(kept)));
  const demo =
    kept !== undefined && keptId !== undefined
      ? { token: kept, tokenId: keptId }
      : await renewDemoToken(config, services, supplierId, live.size);
  // after the file is written: a start stopped in between revokes them at its next start
  for (const tokenId of live.values())
    if (tokenId !== demo.tokenId) await revokeToken(services.commands, supplierId, tokenId, SEED);
  return demo.token;
};

/**
 * Finishes what a stopped seed may have left (the products), issues a token through the
 * operator API's command, writes it to the folder before it is printed, and says so.
 */
const renewDemoToken = async (config: Config, services: Services, supplierId: string, lost: number) => {
  await seedDemoProducts(services);
  const issued = await issueToken(services.commands, supplierId, SEED);
  await writeDataFile(config, DEMO_TOKEN_FILE, issued.token);
  services.log.warn(
    { supplierId, tokenId: issued.tokenId, revokedTokens: lost },
    'the data folder held no token of the demo supplier: a new one was issued (demo_supplier_token below) and the lost ones revoked',
  );
  return issued;
};
