import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { newLedgerSigningKey } from '../crypto/ledger-signing.js';
import { newSecretKey } from '../crypto/secret-box.js';
import { newOperatorToken } from '../crypto/tokens.js';

/** A value from the settings, or one made on first start and kept (mode 600) in the data dir. */
const kept = async (config: Config, file: string, given: string | undefined, make: () => string) => {
  if (given) return given;
  await mkdir(config.dataDir, { recursive: true });
  const full = path.join(config.dataDir, file);
  if (!existsSync(full)) await writeFile(full, make(), { mode: 0o600 });
  return (await readFile(full, 'utf8')).trim();
};

export const operatorToken = (config: Config) => kept(config, 'operator-token', config.operatorToken, newOperatorToken);

/** Production refuses to start without SVC_SECRET_KEY (see config.ts), so this only makes sandbox keys. */
export const secretKey = (config: Config) => kept(config, 'secret-key', config.secretKey, newSecretKey);

/** Production refuses to start without SVC_LEDGER_SIGNING_KEY (see config.ts), so this only makes sandbox keys. */
export const ledgerSigningKey = (config: Config) =>
  kept(config, 'ledger-signing-key', config.ledgerSigningKey, newLedgerSigningKey);

export const demoTokenFile = (config: Config) => path.join(config.dataDir, 'demo-supplier-token');
