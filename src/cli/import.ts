import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import { isText } from '../domain/key-file.js';
import { type components, createMarketplaceClient, ProblemError } from '../sdk/index.js';
import { cliFlags } from './flags.js';

export const importUsage = `usage: npm run cli -- inventory import --base-url ORIGIN --offer OFFER_ID --file PATH
                                [--token TOKEN] [--refused PATH]

  Imports a file of keys (a key per line, or the first column of a CSV or TSV; up to
  100,000) into one of your uploaded offers: prints what it will add and every line it
  will not, with the reason, then adds the keys with a progress bar (keys, rate, time
  left) and prints the result. --refused writes the lines not added as CSV. ORIGIN is the
  service's origin; the token (svc_test_… or svc_live_…) may come from SUPPLIER_TOKEN.
  Exit 2 on bad arguments, 1 when the file or the import is refused.`;

export interface ImportOptions {
  baseUrl: string;
  token: string;
  offerId: string;
  file: string;
  refusedTo?: string;
  /** Between two reads of the import's progress; 500 ms by default. */
  intervalMs?: number;
  out?: (line: string) => void;
  /** Where the progress bar draws (the terminal's stderr by default). */
  stream?: Writable;
}

/** Runs one import to its end; answers the exit code. */
export const importFile = async (options: ImportOptions): Promise<number> => {
  const out = options.out ?? console.log;
  const bytes = await readFile(options.file);
  if (!isText(bytes)) {
    out(`${options.file}: not a text file (keys are read from text, CSV or TSV)`);
    return 1;
  }
  const api = createMarketplaceClient({ baseUrl: options.baseUrl, token: options.token });
  const offer = { offer_id: options.offerId };
  const body = { file_name: path.basename(options.file), content: bytes.toString('utf8') };
  const { data: preview } = await api.POST('/api/v1/offers/{offer_id}/inventory/imports/preview', {
    params: { path: offer },
    body,
  });
  out(`${preview!.keys} key(s) to add from ${preview!.lines} line(s); ${preview!.refused.length} line(s) not added:`);
  for (const r of preview!.refused) out(`  line ${r.line}: ${r.words}${r.shown ? ` (${r.shown})` : ''}`);
  if (preview!.keys === 0) return 0;
  const { data: started } = await api.POST('/api/v1/offers/{offer_id}/inventory/imports', {
    params: { path: offer },
    body,
  });
  const job = { ...offer, import_id: started!.id };
  const bar = new cliProgress.SingleBar(
    {
      format: 'importing {bar} {value}/{total} keys | {rate} keys/s | {left}',
      hideCursor: true,
      ...(options.stream && { stream: options.stream, noTTYOutput: true, notTTYSchedule: 1000 }),
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(started!.keys, 0, { rate: 0, left: '' });
  const begun = Date.now();
  for (;;) {
    const { data } = await api.GET('/api/v1/offers/{offer_id}/inventory/imports/{import_id}', {
      params: { path: job },
    });
    // asked as JSON (the default): the import, not its CSV
    const now = data as components['schemas']['InventoryImport'];
    const seconds = (Date.now() - begun) / 1000;
    bar.update(now.done, {
      rate: seconds > 0 ? Math.round(now.done / seconds) : 0,
      left: now.seconds_left === null ? '' : `${now.seconds_left} s left`,
    });
    if (now.status === 'completed') {
      bar.stop();
      out(`import ${now.id}: ${now.added} key(s) added in batch ${now.batch_id}, ${now.refused} line(s) not added`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
  if (options.refusedTo) {
    const res = await fetch(`${options.baseUrl}/api/v1/offers/${options.offerId}/inventory/imports/${started!.id}`, {
      headers: { authorization: `Bearer ${options.token}`, accept: 'text/csv' },
    });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(options.refusedTo, await res.text());
    out(`the lines not added: ${options.refusedTo}`);
  }
  return 0;
};

export const importCommand = async (args: string[]): Promise<number> => {
  const parsed = cliFlags(args, ['base-url', 'offer', 'file', 'token', 'refused']);
  const token = 'values' in parsed ? (parsed.values.token ?? process.env.SUPPLIER_TOKEN) : undefined;
  if ('error' in parsed || !parsed.values['base-url'] || !parsed.values.offer || !parsed.values.file || !token) {
    console.error('error' in parsed ? `${parsed.error}\n\n${importUsage}` : importUsage);
    return 2;
  }
  try {
    return await importFile({
      baseUrl: parsed.values['base-url'],
      token,
      offerId: parsed.values.offer,
      file: parsed.values.file,
      ...(parsed.values.refused && { refusedTo: parsed.values.refused }),
    });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    console.error(`refused: ${error.message} (${error.code}, trace ${error.traceId})`);
    return 1;
  }
};
