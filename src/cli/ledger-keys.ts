import { readFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import { LedgerKeyring, ledgerKeys, type LedgerKeys, publishedKey } from '../crypto/ledger-signing.js';
import { loadPublicKeys } from '../sdk/ledger/keys.js';
import { readDataFile } from './data-dir.js';

/** What names the public key a check without secrets reads. */
export const PUBLIC_KEY_SETTING = 'SVC_LEDGER_PUBLIC_KEY';

/** Why no key could be had, naming the settings that would give one. */
export class MissingLedgerKey extends Error {}

/** The signing key the settings or the data folder hold, if any: never one made here. */
export const existingLedgerSigningKey = async (config: Config): Promise<string | undefined> =>
  config.ledgerSigningKey ?? (await readDataFile(config, 'ledger-signing-key'));

/** The ledger's keys for a command that signs (statements): the existing signing key, or an error naming its setting. */
export const signingKeys = async (config: Config): Promise<LedgerKeys> => {
  const seed = await existingLedgerSigningKey(config);
  if (!seed)
    throw new MissingLedgerKey(
      `no ledger signing key: set SVC_LEDGER_SIGNING_KEY (or run where the sandbox keeps ${config.dataDir}/ledger-signing-key); none is made here`,
    );
  return ledgerKeys(seed, config.ledgerRetiredKeys);
};

/**
 * The keys a check reads the ledger with, public halves only: `--public-key` (a file or a
 * URL: the service's /.well-known/svc-ledger-signing-key), else SVC_LEDGER_PUBLIC_KEY, else
 * the public half of a signing key the settings or the data folder already hold (with
 * SVC_LEDGER_RETIRED_KEYS). A missing key is an error naming the settings; no key is made.
 */
export const readingKeys = async (config: Config, given?: string): Promise<Pick<LedgerKeys, 'keyring'>> => {
  const source = given ?? config.ledgerPublicKey;
  if (source) {
    const keys = await loadPublicKeys(source, (file) => readFile(file, 'utf8')).catch((error: unknown) => {
      throw new MissingLedgerKey(
        `cannot read the ledger's public key from ${source}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    return {
      keyring: new LedgerKeyring(
        [...keys.map((k) => k.publicKey), ...config.ledgerRetiredKeys].map((k, i) =>
          publishedKey(k, i === 0 ? 'current' : 'retired'),
        ),
      ),
    };
  }
  const seed = await existingLedgerSigningKey(config);
  if (seed) return ledgerKeys(seed, config.ledgerRetiredKeys);
  throw new MissingLedgerKey(
    `no public key of the ledger to check it with: give --public-key FILE|URL or set ${PUBLIC_KEY_SETTING} (a copy of GET /.well-known/svc-ledger-signing-key, a PEM or the key in hex, or the service's URL)`,
  );
};
