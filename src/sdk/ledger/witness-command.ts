import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ProblemError } from '../client.js';
import { newWitnessKey, witnessKey } from './cosignature.js';
import { loadPublicKeys } from './keys.js';
import { runWitness } from './witness.js';
import { fileWitnessState } from './witness-state.js';

export const witnessUsage = `usage: ledger witness --base-url ORIGIN --public-key FILE|URL --witness-key FILE --state FILE
                      [--token TOKEN] [--steps N] [--every SECONDS] [--no-publish]
       ledger witness --new-key FILE

  Witnesses a supplier's ledger: fetches the head the service signs now, checks it is signed
  by the ledger's public key and, against the head kept in --state (the last one accepted),
  that the ledger now begins with every entry that head covered (an RFC 9162 consistency
  proof); then cosigns it with the witness's own key, sends the cosignature to the service
  (which publishes it, unless --no-publish) and keeps the head in --state. A head that does
  not extend the one accepted (a fork, a rewrite, entries taken away) is printed with both
  heads, nothing is kept, and the exit code is 1.
  --public-key (or SVC_LEDGER_PUBLIC_KEY): a copy of /.well-known/svc-ledger-signing-key, a
  PEM or the key in hex, or the service's origin to fetch it from; no key is ever made.
  --witness-key (or SVC_WITNESS_KEY, the key itself): the witness's own Ed25519 key, 64 hex
  characters; --new-key FILE writes a new one (readable by its owner only) and prints its
  public half. The token (svc_test_… or svc_live_…) may come from SUPPLIER_TOKEN, keeping it
  out of the process list. --steps runs that many checks --every SECONDS apart (default 1;
  0 runs until stopped). Exit 0 when every head was accepted, 1 on a fork or a head the
  ledger did not sign, 2 on bad arguments or a missing setting, 3 when the service or the
  state could not be read (nothing was decided).`;

const WITNESS_KEY_SETTING = 'SVC_WITNESS_KEY';
const PUBLIC_KEY_SETTING = 'SVC_LEDGER_PUBLIC_KEY';

const said = (error: unknown) =>
  error instanceof ProblemError
    ? `${error.status} ${error.code}: ${error.problem.detail}`
    : error instanceof Error
      ? error.message
      : String(error);

/** `ledger witness --new-key FILE`: a new witness key, never over an existing file. */
const newKeyFile = async (file: string, out: (line: string) => void, err: (line: string) => void) => {
  const seed = newWitnessKey();
  try {
    await writeFile(file, `${seed}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    err(`cannot write a new witness key to ${file}: ${said(error)}`);
    return 2;
  }
  const key = witnessKey(seed);
  out(`witness key ${key.keyId} written to ${file}; its public key: ${key.publicKey}`);
  return 0;
};

const flags = {
  'base-url': { type: 'string' },
  token: { type: 'string' },
  'public-key': { type: 'string' },
  'witness-key': { type: 'string' },
  state: { type: 'string' },
  steps: { type: 'string' },
  every: { type: 'string' },
  'no-publish': { type: 'boolean' },
  'new-key': { type: 'string' },
} as const;

/** A whole number of at least `min`, from a flag's text. */
const count = (text: string | undefined, fallback: number, min: number) => {
  if (text === undefined) return fallback;
  return /^\d+$/.test(text) && Number(text) >= min ? Number(text) : undefined;
};

type Values = { [K in keyof typeof flags]?: (typeof flags)[K]['type'] extends 'boolean' ? boolean : string };

interface Settings {
  baseUrl: string;
  token: string;
  publicKey: string;
  /** The witness key's seed, or the file holding it. */
  witnessKey: { seed: string } | { file: string };
  state: string;
  steps: number;
  everyMs: number;
  publish: boolean;
}

/** The settings a run needs, or what is missing or wrong, one line each. */
const settingsOf = (values: Values, env: NodeJS.ProcessEnv): Settings | { problems: string[] } => {
  const baseUrl = values['base-url'];
  const token = values.token ?? env.SUPPLIER_TOKEN;
  const publicKey = values['public-key'] ?? env[PUBLIC_KEY_SETTING];
  const file = values['witness-key'];
  const seed = env[WITNESS_KEY_SETTING];
  const steps = count(values.steps, 1, 0);
  const every = count(values.every, 60, 1);
  const missing = [
    !baseUrl && '--base-url',
    !token && '--token (or SUPPLIER_TOKEN)',
    !publicKey && `--public-key (or ${PUBLIC_KEY_SETTING}): the ledger's public key, which no witness makes`,
    !file && !seed && `--witness-key (or ${WITNESS_KEY_SETTING}): the witness's own key (--new-key FILE makes one)`,
    !values.state && '--state',
  ].filter((m): m is string => typeof m === 'string');
  const problems = [
    ...(missing.length > 0 ? [`missing ${missing.join(', ')}`] : []),
    ...[
      baseUrl && !URL.canParse(baseUrl) && `--base-url ${baseUrl} is not a URL`,
      steps === undefined && `--steps ${values.steps} is not a whole number`,
      every === undefined && `--every ${values.every} is not a whole number of seconds, at least 1`,
    ].filter((m): m is string => typeof m === 'string'),
  ];
  if (problems.length > 0 || !baseUrl || !token || !publicKey || !values.state || steps === undefined || !every)
    return { problems };
  return {
    baseUrl,
    token,
    publicKey,
    witnessKey: file ? { file } : { seed: seed ?? '' },
    state: values.state,
    steps,
    everyMs: every * 1000,
    publish: !values['no-publish'],
  };
};

/** The ledger's public keys and the witness's own key, or what could not be read. */
const keysOf = async (s: Settings) => {
  let keys;
  try {
    keys = await loadPublicKeys(s.publicKey, (file) => readFile(file, 'utf8'));
  } catch (error) {
    return {
      problem: `cannot read the ledger's public key from ${s.publicKey} (--public-key or ${PUBLIC_KEY_SETTING}): ${said(error)}`,
    };
  }
  try {
    const seed = 'seed' in s.witnessKey ? s.witnessKey.seed : await readFile(s.witnessKey.file, 'utf8');
    return { keys, key: witnessKey(seed) };
  } catch (error) {
    return {
      key: undefined,
      problem: `cannot read the witness key (--witness-key or ${WITNESS_KEY_SETTING}): ${said(error)}`,
    };
  }
};

/**
 * The witness's command line, the same in the service's CLI (`npm run cli -- ledger witness`)
 * and in the client package (`svc-ledger-witness`): its settings from flags or the environment.
 */
export const witnessCommand = async (
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
  signal?: AbortSignal,
): Promise<number> => {
  let values: Values;
  try {
    ({ values } = parseArgs({ args, options: flags, strict: true, allowPositionals: false }));
  } catch (error) {
    err(`${said(error)}\n${witnessUsage}`);
    return 2;
  }
  if (values['new-key'] !== undefined) return newKeyFile(values['new-key'], out, err);
  const settings = settingsOf(values, env);
  if ('problems' in settings) {
    err(`${settings.problems.join('\n')}\n${witnessUsage}`);
    return 2;
  }
  const keys = await keysOf(settings);
  if (!keys.key) {
    err(keys.problem ?? 'no witness key');
    return 2;
  }
  try {
    const outcome = await runWitness({
      baseUrl: settings.baseUrl,
      token: settings.token,
      keys: keys.keys,
      witnessKey: keys.key,
      ...fileWitnessState(settings.state),
      publish: settings.publish,
      steps: settings.steps,
      everyMs: settings.everyMs,
      out,
      ...(signal && { signal }),
    });
    return outcome.ok ? 0 : 1;
  } catch (error) {
    err(`nothing decided: ${said(error)}`);
    return 3;
  }
};
