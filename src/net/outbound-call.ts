import type { Dispatcher } from 'undici';
import { atDeadline, timeoutError } from './deadline.js';
import { outboundDispatcher, refusalOf } from './pinned.js';
import type { TargetPolicy } from './targets.js';

/** An outbound call's answer: its status and its body, read to its end or to the call's limit. */
export interface CallAnswer {
  statusCode: number;
  /** The whole body; with `overLimit: 'cut'`, at most its first `maxAnswerBytes`. */
  body: Buffer;
}

export interface OutboundCall {
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  /** The whole call's window: connection, request and answer; its headers and each chunk of its body too. */
  timeoutMs: number;
  /**
   * The most bytes of the answer's body read (src/outbound/answer-limits.ts). A body longer
   * than that is never read past it: the connection is closed under it, so a server that
   * answers without end costs the service this much memory and no more.
   */
  maxAnswerBytes: number;
  /** A body past the limit: `fail` (the default) fails the call with AnswerTooLarge; `cut` answers its first bytes. */
  overLimit?: 'fail' | 'cut';
}

/** A call whose answer's body went past the call's `maxAnswerBytes`. */
export class AnswerTooLarge extends Error {
  readonly code = 'ERR_ANSWER_TOO_LARGE';
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

/** Origin and path of each URL called, parsed once: the URLs called are those of few endpoints. */
const parsedUrls = new Map<string, { origin: string; path: string }>();
const originAndPath = (url: string) => {
  let parsed = parsedUrls.get(url);
  if (!parsed) {
    if (parsedUrls.size >= 10_000) parsedUrls.clear();
    const u = new URL(url);
    parsed = { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
    parsedUrls.set(url, parsed);
  }
  return parsed;
};

/**
 * Collects one answer straight from the connection. undici's `request` wraps every answer
 * in a stream, an abort listener and a handler of its own, and `request(url)` parsed the
 * URL into a new object per call: together about a quarter of a webhook attempt's CPU,
 * for bodies the callers read whole (or drop) anyway.
 */
class Collect implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private abort: ((reason: Error) => void) | undefined;
  private expired = false;
  /** Answered (or failed) before the body's end: what undici reports after it is not the call's. */
  private settled = false;
  cancelDeadline: () => void = () => undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly overLimit: 'fail' | 'cut',
    private readonly resolve: (answer: CallAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** The window ran out: the call is aborted now, or as soon as it has a connection. */
  expire(): void {
    this.expired = true;
    this.abort?.(timeoutError());
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.expired) abort(timeoutError());
    else this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.statusCode = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    if (chunk.length <= this.maxBytes - this.kept) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return true;
    }
    // past the limit: the call ends here, and the connection is closed so nothing more is read
    this.settled = true;
    this.cancelDeadline();
    const tooLarge = new AnswerTooLarge(this.maxBytes);
    if (this.overLimit === 'cut') {
      this.chunks.push(chunk.subarray(0, this.maxBytes - this.kept));
      this.resolve({ statusCode: this.statusCode, body: Buffer.concat(this.chunks, this.maxBytes) });
    } else this.reject(tooLarge);
    this.chunks.length = 0;
    this.abort?.(tooLarge);
    return false;
  }

  onComplete(): void {
    if (this.settled) return;
    this.cancelDeadline();
    this.resolve({ statusCode: this.statusCode, body: Buffer.concat(this.chunks, this.kept) });
  }

  onError(error: Error): void {
    if (this.settled) return;
    this.cancelDeadline();
    this.reject(error);
  }
}

/**
 * One call through the policy's pinned pool (pinned.ts), answered once its body is read.
 * Redirects are not followed. Fails as undici does (a refused target, a lost connection,
 * a headers or body timeout), with a TimeoutError once the whole window has passed, or
 * with AnswerTooLarge once the body goes past `maxAnswerBytes` (unless it is `cut`).
 */
export const outboundCall = (policy: TargetPolicy, url: string, call: OutboundCall): Promise<CallAnswer> =>
  new Promise<CallAnswer>((resolve, reject) => {
    const target = originAndPath(url);
    const handler = new Collect(call.maxAnswerBytes, call.overLimit ?? 'fail', resolve, reject);
    handler.cancelDeadline = atDeadline(call.timeoutMs, () => handler.expire());
    outboundDispatcher(policy).dispatch(
      // written out, not spread from `target`: options built with a spread made every call
      // about 15 µs slower in undici (a quarter of a webhook POST's CPU, measured alone
      // against 10 loopback receivers), though they hold the same fields
      {
        origin: target.origin,
        path: target.path,
        method: call.method,
        headers: call.headers,
        body: call.body,
        headersTimeout: call.timeoutMs,
        bodyTimeout: call.timeoutMs,
      },
      handler,
    );
  });

/** Whether a failed call ran out of time (the window, or undici's own headers or body timeout). */
export const timedOut = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'TimeoutError' || error.name === 'AbortError' || /timeout/i.test(error.message));

/**
 * Why a call failed, in the words every caller logs: its target refused, no answer in time,
 * an answer past the call's limit, or the connection.
 */
export const callFailure = (
  error: unknown,
  timeoutMs: number,
): { reason: 'target' | 'timeout' | 'too_large' | 'connection'; detail: string } => {
  const refusal = refusalOf(error);
  if (refusal) return { reason: 'target', detail: refusal };
  if (error instanceof AnswerTooLarge) return { reason: 'too_large', detail: error.message };
  return timedOut(error)
    ? { reason: 'timeout', detail: `no answer within ${timeoutMs} ms` }
    : { reason: 'connection', detail: 'connection failed' };
};

/** `callFailure` as one line of a log: a refused target says so. */
export const callFailureText = (error: unknown, timeoutMs: number): string => {
  const { reason, detail } = callFailure(error, timeoutMs);
  return reason === 'target' ? `target refused: ${detail}` : detail;
};
