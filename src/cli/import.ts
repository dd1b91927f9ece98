import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import { isText } from '../domain/key-file.js';
import { type components, createMarketplaceClient, ProblemError } from '../sdk/index.js';
import { cliFlags } from './flags.js';

export const importUsage = `usage: npm run cli -- inventory import OFFER_ID PATH --base-url ORIGIN [--token TOKEN] [--refused PATH]
       npm run cli -- inventory import --base-url ORIGIN --offer OFFER_ID --file PATH [--token TOKEN] [--refused PATH]
       npm run cli -- inventory import --base-url ORIGIN --offer OFFER_ID --import IMPORT_ID [--refused PATH]

  Imports a file of keys (a key per line, or the first column of a CSV or TSV; up to
  100,000) into one of your uploaded offers: prints what it will add and every line it
  will not, with the reason, then adds the keys with a progress bar (keys, rate, time
  left) and prints the result. --refused writes the lines not added as CSV. ORIGIN is the
  service's origin; the token (svc_test_… or svc_live_…) may come from SUPPLIER_TOKEN.
  --import follows an import already started (after this command was stopped): the
  import itself runs in the service, and goes on across its restarts; so does this command,
  which waits for the service to answer again. Exit 2 on bad arguments, 1 when the file or
  the import is refused.`;

/** How long the progress waits for a service that stopped answering (a restart) before giving up. */
const UNANSWERED_LIMIT_MS = 10 * 60_000;

/** Whether a failed read of the progress is the service restarting: no answer, or a 502-504 of its proxy. */
const restarting = (error: unknown) =>
  error instanceof ProblemError ? error.status >= 502 && error.status <= 504 : error instanceof TypeError;

export interface ImportOptions {
  baseUrl: string;
  token: string;
  offerId: string;
  /** The file to import, or the import to follow. */
  file?: string;
  importId?: string;
  refusedTo?: string;
  /** Between two reads of the import's progress; 500 ms by default. */
  intervalMs?: number;
  out?: (line: string) => void;
  /** Where the progress bar draws (the terminal's stderr by default). */
  stream?: Writable;
}

/** Previews the file and starts its import; answers the import, or the exit code when there is nothing to do. */
const startImport = async (
  api: ReturnType<typeof createMarketplaceClient>,
  offerId: string,
  file: string,
  out: (line: string) => void,
): Promise<{ id: string; keys: number } | number> => {
  const bytes = await readFile(file);
  if (!isText(bytes)) {
    out(`${file}: not a text file (keys are read from text, CSV or TSV)`);
    return 1;
  }
  const offer = { offer_id: offerId };
  const body = { file_name: path.basename(file), content: bytes.toString('utf8') };
  const { data: preview } = await api.POST('/api/v1/offers/{offer_id}/inventory/imports/preview', {
    params: { path: offer },
    body,
  });
  out(`${preview.keys} key(s) to add from ${preview.lines} line(s); ${preview.refused.length} line(s) not added:`);
  for (const r of preview.refused) out(`  line ${r.line}: ${r.words}${r.shown ? ` (${r.shown})` : ''}`);
  if (preview.keys === 0) return 0;
  const { data: started } = await api.POST('/api/v1/offers/{offer_id}/inventory/imports', {
    params: { path: offer },
    body,
  });
  out(`import ${started.id} started (follow it again with --import ${started.id})`);
  return { id: started.id, keys: started.keys };
};

/** The import's refused lines as CSV, as the API gives them. */
const writeRefused = async (options: ImportOptions, importId: string, to: string, out: (line: string) => void) => {
  const res = await fetch(`${options.baseUrl}/api/v1/offers/${options.offerId}/inventory/imports/${importId}`, {
    headers: { authorization: `Bearer ${options.token}`, accept: 'text/csv' },
  });
  await writeFile(to, await res.text());
  out(`the lines not added: ${to}`);
};

/** The import's bar: keys recorded of the total, the rate and the time left, on the terminal or a given stream. */
const progressBar = (options: ImportOptions, keys: number) => {
  const bar = new cliProgress.SingleBar(
    {
      format: 'importing {bar} {value}/{total} keys | {rate} keys/s | {left}',
      hideCursor: true,
      ...(options.stream && { stream: options.stream, noTTYOutput: true, notTTYSchedule: 1000 }),
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(keys, 0, { rate: 0, left: '' });
  return bar;
};

/** Runs one import to its end (or follows one already started); answers the exit code. */
export const importFile = async (options: ImportOptions): Promise<number> => {
  const out = options.out ?? console.log;
  const api = createMarketplaceClient({ baseUrl: options.baseUrl, token: options.token });
  const { importId, file } = options;
  const started = importId
    ? { id: importId, keys: 0 }
    : file
      ? await startImport(api, options.offerId, file, out)
      : undefined;
  if (started === undefined) throw new Error('an import needs a file, or the id of an import to follow');
  if (typeof started === 'number') return started;
  const job = { offer_id: options.offerId, import_id: started.id };
  const bar = progressBar(options, started.keys);
  const begun = Date.now();
  let unansweredSince: number | undefined;
  for (;;) {
    let now: components['schemas']['InventoryImport'] | undefined;
    try {
      const { data } = await api.GET('/api/v1/offers/{offer_id}/inventory/imports/{import_id}', {
        params: { path: job },
      });
      // asked as JSON (the default): the import, not its CSV
      now = data as components['schemas']['InventoryImport'];
      unansweredSince = undefined;
    } catch (error) {
      if (!restarting(error)) {
        bar.stop();
        throw error;
      }
      unansweredSince ??= Date.now();
      if (Date.now() - unansweredSince > UNANSWERED_LIMIT_MS) {
        bar.stop();
        out(
          `the service has not answered for ${UNANSWERED_LIMIT_MS / 60_000} minutes; follow the import again with --import ${started.id}`,
        );
        return 1;
      }
      bar.update({ left: 'waiting for the service to answer again' });
    }
    if (now) {
      const seconds = (Date.now() - begun) / 1000;
      bar.setTotal(now.keys);
      bar.update(now.done, {
        rate: seconds > 0 ? Math.round(now.done / seconds) : 0,
        left: now.seconds_left === null ? '' : `${now.seconds_left} s left`,
      });
      if (now.status === 'completed') {
        bar.stop();
        out(`import ${now.id}: ${now.added} key(s) added in batch ${now.batch_id}, ${now.refused} line(s) not added`);
        break;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
  if (options.refusedTo) await writeRefused(options, started.id, options.refusedTo, out);
  return 0;
};

export const importCommand = async (args: string[]): Promise<number> => {
  // `inventory import OFFER_ID PATH --base-url …`: the two words first, the flags after
  const words = args[0] && !args[0].startsWith('-') && args[1] && !args[1].startsWith('-') ? args.slice(0, 2) : [];
  const parsed = cliFlags(args.slice(words.length), ['base-url', 'offer', 'file', 'import', 'token', 'refused']);
  if ('values' in parsed && words.length === 2) {
    parsed.values.offer ??= words[0];
    parsed.values.file ??= words[1];
  }
  const token = 'values' in parsed ? (parsed.values.token ?? process.env.SUPPLIER_TOKEN) : undefined;
  if (
    'error' in parsed ||
    !parsed.values['base-url'] ||
    !parsed.values.offer ||
    !parsed.values.file === !parsed.values.import ||
    !token
  ) {
    console.error('error' in parsed ? `${parsed.error}\n\n${importUsage}` : importUsage);
    return 2;
  }
  try {
    return await importFile({
      baseUrl: parsed.values['base-url'],
      token,
      offerId: parsed.values.offer,
      ...(parsed.values.file && { file: parsed.values.file }),
      ...(parsed.values.import && { importId: parsed.values.import }),
      ...(parsed.values.refused && { refusedTo: parsed.values.refused }),
    });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    console.error(`refused: ${error.message} (${error.code}, trace ${error.traceId})`);
    return 1;
  }
};
