import { parseArgs } from 'node:util';
import { decodeTime } from 'ulid';
import { signatureHeader } from '../crypto/signature.js';
import { createMarketplaceClient, type MarketplaceClient, ProblemError, verifySignature } from '../sdk/index.js';

export const listenUsage = `usage: npm run cli -- listen --base-url ORIGIN --webhook WEBHOOK_ID --forward-to URL
                                [--token TOKEN] [--secret WHSEC]

  Follows the delivery log of one of your webhook endpoints and forwards every attempt the
  service makes to it, the same envelope, to URL (your receiver on this machine), signed
  again now with the endpoint's secret: your receiver's verifySignature(rawBody, headers,
  [secret]) passes exactly as it will in production. ORIGIN is the service's origin
  (https://api.example.com, or the base_url npm start prints). The token (svc_test_… or
  svc_live_…) may come from SUPPLIER_TOKEN and the secret (whsec_…) from WEBHOOK_SECRET,
  keeping them out of the process list. One line per event: time, type, event id, the
  local answer. Exit 2 on bad arguments, 1 when the secret does not sign the endpoint's
  deliveries; Ctrl-C stops it.`;

/** How far back each poll looks again: an attempt written late (its id older than one seen) is still found. */
const OVERLAP_MS = 60_000;
const LOCAL_TIMEOUT_MS = 10_000;
const PAGE = 100;

export interface ListenOptions {
  baseUrl: string;
  token: string;
  webhookId: string;
  secret: string;
  forwardTo: string;
  /** Between two reads of the delivery log; 1 s by default. */
  intervalMs?: number;
  out?: (line: string) => void;
  signal?: AbortSignal;
}

type Attempt = { id: string; event_id: string; event_type: string; created_at: string };

/** The attempts newer than `horizon` (ULID time, ms), newest first, page after page. */
const recentAttempts = async (api: MarketplaceClient, webhookId: string, horizon: number): Promise<Attempt[]> => {
  const found: Attempt[] = [];
  let cursor: string | undefined;
  for (;;) {
    const { data } = await api.GET('/api/v1/webhook-deliveries', {
      params: { query: { webhook_id: webhookId, limit: PAGE, ...(cursor && { cursor }) } },
    });
    for (const row of data!.data) {
      if (decodeTime(row.id) < horizon) return found;
      found.push(row);
    }
    if (!data!.next_cursor) return found;
    cursor = data!.next_cursor;
  }
};

/** The local answer in a word: its status, or why there was none. */
const localStatus = async (url: string, headers: Record<string, string>, body: string): Promise<string> => {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(LOCAL_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return String(res.status);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    return error instanceof Error && error.name === 'TimeoutError'
      ? `no answer within ${LOCAL_TIMEOUT_MS} ms`
      : 'connection failed';
  }
};

class WrongSecret extends Error {}

/**
 * Follows the endpoint's delivery log and forwards each new attempt. The log is read, not a
 * feed of its own: it holds the exact bytes the endpoint is sent (test-fires, resends and
 * recoveries among them), each attempt once, with nothing more to store. Resolves when
 * `signal` aborts; rejects when the secret does not sign the deliveries.
 */
export const listen = async (options: ListenOptions): Promise<void> => {
  const out = options.out ?? console.log;
  const api = createMarketplaceClient({ baseUrl: options.baseUrl, token: options.token });
  const { data: endpoint } = await api.GET('/api/v1/webhooks/{webhook_id}', {
    params: { path: { webhook_id: options.webhookId } },
  });
  const seen = new Map<string, number>();
  // what the log holds already was delivered before: only attempts from now on are forwarded.
  // Time is the ids' (the service's clock), never this machine's
  const { data: head } = await api.GET('/api/v1/webhook-deliveries', {
    params: { query: { webhook_id: options.webhookId, limit: 1 } },
  });
  let newest = head!.data[0] ? decodeTime(head!.data[0].id) : 0;
  for (const a of await recentAttempts(api, options.webhookId, newest - OVERLAP_MS)) seen.set(a.id, decodeTime(a.id));
  out(
    `listening to webhook ${endpoint!.id} (${endpoint!.url}, ${endpoint!.status}), forwarding to ${options.forwardTo}`,
  );

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });

  while (!options.signal?.aborted) {
    const fresh = (await recentAttempts(api, options.webhookId, newest - OVERLAP_MS))
      .filter((a) => !seen.has(a.id))
      .reverse();
    for (const attempt of fresh) {
      const { data: sent } = await api.GET('/api/v1/webhook-deliveries/{delivery_id}', {
        params: { path: { delivery_id: attempt.id } },
      });
      const original = sent!.request_headers;
      // the secret given must be one that signed this attempt: else the receiver would be
      // taught to accept a signature production never makes
      const check = verifySignature(sent!.request_body, original, [options.secret], {
        now: () => Number(original['x-svc-timestamp']),
      });
      if (!check.ok)
        throw new WrongSecret(
          `the secret given does not sign webhook ${options.webhookId}'s deliveries (${check.reason}): pass the endpoint's current secret`,
        );
      const timestamp = String(Date.now());
      const headers = {
        ...original,
        'x-svc-timestamp': timestamp,
        'x-svc-signature': signatureHeader([options.secret], timestamp, sent!.request_body),
      };
      const status = await localStatus(options.forwardTo, headers, sent!.request_body);
      seen.set(attempt.id, decodeTime(attempt.id));
      newest = Math.max(newest, decodeTime(attempt.id));
      out(`${attempt.created_at} ${attempt.event_type} ${attempt.event_id} -> ${status}`);
    }
    for (const [id, at] of seen) if (at < newest - OVERLAP_MS) seen.delete(id);
    await sleep(options.intervalMs ?? 1000);
  }
};

/** `listen`: the command line of `listen`, its settings from flags or the environment. */
export const listenCommand = async (
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = console.log,
): Promise<number> => {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        'base-url': { type: 'string' },
        webhook: { type: 'string' },
        'forward-to': { type: 'string' },
        token: { type: 'string' },
        secret: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${listenUsage}`);
    return 2;
  }
  const token = values.token ?? env.SUPPLIER_TOKEN;
  const secret = values.secret ?? env.WEBHOOK_SECRET;
  const missing = [
    !values['base-url'] && '--base-url',
    !values.webhook && '--webhook',
    !values['forward-to'] && '--forward-to',
    !token && '--token (or SUPPLIER_TOKEN)',
    !secret && '--secret (or WEBHOOK_SECRET)',
  ].filter(Boolean);
  const urls = [values['base-url'], values['forward-to']].filter((u) => u && !URL.canParse(u));
  if (missing.length > 0 || urls.length > 0) {
    console.error(
      `${missing.length > 0 ? `missing ${missing.join(', ')}` : `not a URL: ${urls.join(', ')}`}\n${listenUsage}`,
    );
    return 2;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  try {
    await listen({
      baseUrl: values['base-url']!,
      token: token!,
      webhookId: values.webhook!,
      secret: secret!,
      forwardTo: values['forward-to']!,
      out,
      signal: stop.signal,
    });
    return 0;
  } catch (error) {
    if (error instanceof ProblemError) console.error(`${error.status} ${error.code}: ${error.problem.detail}`);
    else console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
};
