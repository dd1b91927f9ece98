import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../../db/faults.js';
import { WrongExpectedRevision } from '../../eventstore/port.js';
import { HttpProblem } from '../problem.js';
import { problemCodes } from '../problem-codes.js';
import { ApiFault, type Console } from './core.js';
import { FormRefused } from './form-body.js';
import { html } from './html.js';
import { render } from './page.js';
import { readSession } from './session.js';

/** Whether retrying soon helps: the database was away, or a write lost its race, here or in the API. */
const unavailable = (error: unknown) =>
  error instanceof ApiFault
    ? error.status === 503
    : isDatabaseUnavailable(error) || error instanceof WrongExpectedRevision;

const BACK = html`<p><a href="/console">Go to the console's start</a></p>`;

/**
 * What the console answers when a request did not go through. What a person sent is never a
 * 5xx: an unreadable request is a 4xx page. What the service could not do is said as it is,
 * as the API says it: 503 with Retry-After while the database is away or a write is contended
 * (retrying helps, and monitoring sees an outage, not a bug), and 500 for a fault of the
 * service's own, with the request's reference to quote, logged with its stack. Both are
 * console pages, never the API's JSON.
 */
export const answerFault = (c: Console, error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
  const s = readSession(req);
  if (unavailable(error)) {
    req.log.warn({ err: { message: error.message, code: error.code } }, 'console page unavailable');
    const retryAfter = error instanceof ApiFault ? error.retryAfter : undefined;
    reply.header('retry-after', retryAfter ?? String(UNAVAILABLE_RETRY_AFTER_S));
    const message = 'The service cannot answer right now. Try again in a moment.';
    return render(c, reply, s, { title: 'Unavailable', error: message }, BACK, 503);
  }
  const refused = refusedInput(error);
  if (!refused) {
    req.log.error({ err: error }, 'console page failed');
    const message = `Something went wrong on our side. Try again, and if it keeps happening tell us this reference: ${req.id}.`;
    return render(c, reply, s, { title: 'Error', error: message }, BACK, 500);
  }
  for (const [name, value] of Object.entries(refused.headers)) reply.header(name, value);
  return render(c, reply, s, { title: 'Refused', error: refused.words }, BACK, refused.status);
};

/**
 * What a person sent that the console or the API's shared checks refused before any page
 * ran (a form too large or unreadable, a NUL in a query, too many requests): a 4xx page
 * saying so. Undefined for anything else, which is a fault of the service's own.
 */
const refusedInput = (
  error: FastifyError,
): { status: number; words: string; headers: Record<string, string> } | undefined => {
  if (error instanceof FormRefused) return { status: error.statusCode, words: error.words, headers: {} };
  if (error instanceof HttpProblem) {
    const status = problemCodes[error.code].status;
    const words =
      error.code === 'rate_limited'
        ? `Too many requests from here: wait ${error.headers['retry-after'] ?? '60'} seconds and try again.`
        : `This request could not be read (${error.detail}). Reload the page and try again.`;
    return status < 500 ? { status, words, headers: error.headers } : undefined;
  }
  if (error instanceof ApiFault || !error.statusCode || error.statusCode >= 500) return undefined;
  const words =
    error.statusCode === 413
      ? 'That is more than one form can send: send it in parts.'
      : 'This request could not be read: reload the page and try again.';
  return { status: error.statusCode, words, headers: {} };
};
