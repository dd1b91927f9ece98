import type { Socket } from 'node:net';
import { newId } from '../ids.js';
import { type ProblemCode, problemCodes } from './problem-codes.js';

const DETAILS: Partial<Record<ProblemCode, string>> = {
  headers_too_large: 'the request line and headers are larger than the 16 KB this service reads',
  request_timeout: 'the request did not arrive in time',
  bad_request: 'the request is not well-formed HTTP/1.1',
};

/**
 * Answers what Node's HTTP parser refuses before any route sees it (headers past 16 KB, a
 * control character in a header, a Content-Length that is not a number, a request that
 * never finished): a problem+json like every other refusal, where the framework's default
 * answer is its own JSON shape. No request was read, so the type is relative and the
 * trace id is made here; the connection is closed, as the parser cannot go on reading it.
 */
export const answerClientError = (error: Error & { code?: string }, socket: Socket): void => {
  // a connection reset has nothing left to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ProblemCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'headers_too_large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'request_timeout'
        : 'bad_request';
  const { status, title } = problemCodes[code];
  const body = JSON.stringify({
    type: `/api/v1/errors#${code}`,
    title,
    status,
    detail: DETAILS[code],
    code,
    trace_id: newId(),
  });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
};
