import type { Config } from '../config.js';
import { newLedgerSigningKey } from '../crypto/ledger-signing.js';
import { newSecretKey } from '../crypto/secret-box.js';
import { newOperatorToken } from '../crypto/tokens.js';
import { readDataFile, writeDataFile } from './data-dir.js';

/** A value from the settings, or one made on first start and kept (mode 600) in the data dir. */
const kept = async (config: Config, file: string, given: string | undefined, make: () => string) => {
  if (given) return given;
  const found = await readDataFile(config, file);
  if (found) return found;
  const made = make();
  await writeDataFile(config, file, made);
  return made;
};

export const operatorToken = (config: Config) => kept(config, 'operator-token', config.operatorToken, newOperatorToken);

/** Production refuses to start without SVC_SECRET_KEY (see config.ts), so this only makes sandbox keys. */
export const secretKey = (config: Config) => kept(config, 'secret-key', config.secretKey, newSecretKey);

/** Production refuses to start without SVC_LEDGER_SIGNING_KEY (see config.ts), so this only makes sandbox keys. */
export const ledgerSigningKey = (config: Config) =>
  kept(config, 'ledger-signing-key', config.ledgerSigningKey, newLedgerSigningKey);
