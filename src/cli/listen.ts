import { parseArgs } from 'node:util';
import { createMarketplaceClient, type MarketplaceClient, ProblemError } from '../sdk/index.js';

export const listenUsage = `usage: npm run cli -- listen --base-url ORIGIN --forward-to URL [--events TYPE,TYPE…] [--token TOKEN]

  Opens a forwarding session on the service and forwards your webhook events to URL (your
  receiver on this machine) while it runs: no endpoint of yours is needed, and the service
  never calls this machine (listen asks it for the events). Each event comes as a delivery
  does, its headers signed with the session's own secret, which listen prints once as
  webhook_secret=whsec_… (give it to your receiver's verifySignature). ORIGIN is the
  service's origin (https://api.example.com, or the base_url npm start prints); the token
  (svc_test_… or svc_live_…) may come from SUPPLIER_TOKEN, keeping it out of the process
  list. --events names the event types (default: every one). One line per event: time,
  type, event id, the local answer. Ctrl-C ends the session; an interrupted one ends by
  itself a minute after its last poll. Exit 2 on bad arguments, 1 when the session cannot
  be opened or ended under it.`;

const LOCAL_TIMEOUT_MS = 10_000;
/** How long one poll waits on the service for an event. */
const WAIT_SECONDS = 10;
/** How much longer than that a poll may take before it counts as unanswered. */
const POLL_SLACK_S = 20;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 8000;

export interface ListenOptions {
  baseUrl: string;
  token: string;
  forwardTo: string;
  /** Event types, or `*` (the default). */
  events?: string[];
  /** How long each poll waits on the service when nothing is there (seconds; 10 by default). */
  waitSeconds?: number;
  out?: (line: string) => void;
  signal?: AbortSignal;
}

type Forwarded = {
  id: string;
  event_id: string;
  event_type: string;
  created_at: string;
  headers: Record<string, string>;
  body: string;
};

/** The local answer in a word: its status, or why there was none. */
const localStatus = async (url: string, event: Forwarded): Promise<string> => {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: event.headers,
      body: event.body,
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

/** A failure a later poll may not meet: no answer, a cut connection, the service busy or restarting. */
const passing = (error: unknown) => !(error instanceof ProblemError) || error.status >= 500 || error.status === 429;

/** A failure in a few words: fetch's own is "fetch failed", its cause says which. */
const said = (error: unknown) => {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${message}: ${code}` : message;
};

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Polls until `signal` aborts: each poll acknowledges what the one before handed over. A poll
 * the service did not answer (it restarts, the network dropped) is tried again after a
 * growing pause, up to 8 s, as long as it takes: the session waits a minute for its next
 * poll, and one that lapsed meanwhile is said by the service (409), which ends `listen`.
 */
const forwardAll = async (api: MarketplaceClient, sessionId: string, options: ListenOptions) => {
  const out = options.out ?? console.log;
  const wait = options.waitSeconds ?? WAIT_SECONDS;
  let ack: string[] = [];
  let pause = RETRY_FIRST_MS;
  while (!options.signal?.aborted) {
    // a poll that hangs (a connection that went silent) is given up past the service's wait
    const limit = AbortSignal.timeout((wait + POLL_SLACK_S) * 1000);
    let events: Forwarded[];
    try {
      const { data } = await api.POST('/api/v1/webhook-listen-sessions/{session_id}/poll', {
        params: { path: { session_id: sessionId } },
        body: { ack, wait_seconds: wait },
        signal: options.signal ? AbortSignal.any([options.signal, limit]) : limit,
      });
      events = data.data;
    } catch (error) {
      if (options.signal?.aborted || !passing(error)) throw error;
      out(`the service did not answer (${said(error)}); trying again in ${pause / 1000} s`);
      await sleep(pause, options.signal);
      pause = Math.min(pause * 2, RETRY_MAX_MS);
      continue;
    }
    pause = RETRY_FIRST_MS;
    ack = [];
    for (const event of events) {
      const status = await localStatus(options.forwardTo, event);
      ack.push(event.id);
      out(`${event.created_at} ${event.event_type} ${event.event_id} -> ${status}`);
    }
  }
};

/**
 * Opens a session, forwards what it receives until `signal` aborts, then ends it. The session
 * is the service's: it takes no endpoint slot, and nothing it was handed is retried after it
 * ends. Rejects when the session cannot be opened, or ends under it (its lease lapsed while
 * this machine slept).
 */
export const listen = async (options: ListenOptions): Promise<void> => {
  const out = options.out ?? console.log;
  const api = createMarketplaceClient({ baseUrl: options.baseUrl, token: options.token });
  const { data: me } = await api.GET('/api/v1/whoami');
  const { data: session } = await api.POST('/api/v1/webhook-listen-sessions', {
    body: { events: (options.events ?? ['*']) as ['*'] },
  });
  out(
    `listening to ${me.supplier.name}'s events (${session.events.join(', ')}) in the ${me.environment}, session ${session.id}, forwarding to ${options.forwardTo}`,
  );
  // on a line of its own, as npm start's settings are: a script reads it with sed
  out(`webhook_secret=${session.secret}`);
  try {
    await forwardAll(api, session.id, options);
  } catch (error) {
    // a poll cut short by the stop is no failure
    if (!options.signal?.aborted) throw error;
  }
  // stopped: the session ends now (or, should the service not answer, a minute after its last poll)
  await api
    .DELETE('/api/v1/webhook-listen-sessions/{session_id}', { params: { path: { session_id: session.id } } })
    .catch((error: unknown) =>
      out(`the session was not ended now (${said(error)}): it ends by itself within a minute`),
    );
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
        'forward-to': { type: 'string' },
        events: { type: 'string' },
        token: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${listenUsage}`);
    return 2;
  }
  const token = values.token ?? env.SUPPLIER_TOKEN;
  const { 'base-url': baseUrl, 'forward-to': forwardTo } = values;
  const missing = [
    !baseUrl && '--base-url',
    !forwardTo && '--forward-to',
    !token && '--token (or SUPPLIER_TOKEN)',
  ].filter(Boolean);
  const urls = [baseUrl, forwardTo].filter((u) => u && !URL.canParse(u));
  if (!baseUrl || !forwardTo || !token || urls.length > 0) {
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
      baseUrl,
      token,
      forwardTo,
      ...(values.events !== undefined && { events: values.events.split(',').map((e) => e.trim()) }),
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
