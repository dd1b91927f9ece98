import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from '../db/faults.js';
import { DomainError } from '../domain/errors.js';
import { WrongExpectedRevision } from '../eventstore/port.js';
import { HttpProblem, sendProblem } from './problem.js';

interface FieldError {
  field: string;
  message: string;
}

const fieldPath = (context: string | undefined, instancePath: string) =>
  [context ?? 'body', ...instancePath.split('/').filter(Boolean)].join('.');

/**
 * A domain rule names the inputs it refused as its command names them; a command's input is
 * the request's body (every route that takes one passes it on), so the problem's `errors`
 * name them there, as the schema checks name theirs.
 */
const withInputErrors = (error: DomainError): Record<string, unknown> =>
  error.inputs.length === 0
    ? error.extensions
    : { ...error.extensions, errors: error.inputs.map((i) => ({ field: `body.${i.input}`, message: i.message })) };

/**
 * One error mechanism for every route: whatever goes wrong leaves as
 * application/problem+json. Anything unexpected is logged with its stack and answered as
 * a 500 that reveals nothing.
 */
export const registerErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof HttpProblem) {
      reply.headers(error.headers);
      return sendProblem(req, reply, error.code, error.detail, error.extensions);
    }
    if (error instanceof DomainError) {
      return sendProblem(req, reply, error.code, error.detail, withInputErrors(error));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldError[] = error.validation.map((v: { instancePath: string; message?: string }) => ({
        field: fieldPath(error.validationContext, v.instancePath),
        message: v.message ?? 'invalid',
      }));
      return sendProblem(req, reply, 'validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors,
      });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendProblem(req, reply, 'malformed_json', 'the body is not valid JSON');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(req, reply, 'unsupported_media_type', 'send the body as application/json');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(req, reply, 'payload_too_large', 'the body is larger than this endpoint accepts');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(req, reply, 'bad_request', error.message);
    }
    if (isDatabaseUnavailable(error)) return answerUnavailable(req, reply, error);
    if (error instanceof WrongExpectedRevision) return answerContended(req, reply, error);
    req.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      req,
      reply,
      'internal_error',
      'something went wrong on our side; quote the trace_id when you report it',
    );
  });

  app.setNotFoundHandler((req, reply) =>
    sendProblem(req, reply, 'not_found', `no route ${req.method} ${req.url.split('?')[0]}`),
  );
};

/**
 * A write that lost the race for one of its streams on every one of its decisions (several
 * instances writing one offer's stock at once): nothing was written, and the same request
 * decided again a moment later goes through. Its Idempotency-Key is let go with the 5xx.
 */
const answerContended = (req: FastifyRequest, reply: FastifyReply, error: WrongExpectedRevision) => {
  req.log.warn({ err: { message: error.message } }, 'write contended past its retries');
  reply.header('retry-after', '1');
  return sendProblem(req, reply, 'service_unavailable', 'too many writes to the same resource at once; retry shortly');
};

/**
 * The database went away under this request (a dropped session, a restart): only this
 * request fails, with 503 and Retry-After; the process stays up and reconnects by itself.
 */
const answerUnavailable = (req: FastifyRequest, reply: FastifyReply, error: unknown) => {
  req.log.warn(
    {
      err: {
        message: error instanceof Error ? error.message : String(error),
        code: (error as { code?: unknown }).code,
      },
    },
    'database unavailable',
  );
  reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
  return sendProblem(
    req,
    reply,
    'service_unavailable',
    'the service cannot reach its database right now; retry shortly',
  );
};

/**
 * Errors fastify raises before routing (an undecodable URL, a path segment longer than any
 * id) bypass the hooks: they get the trace id, the rate-limit count and a problem here.
 */
export const answerFrameworkError = async (
  error: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
  meter: (req: FastifyRequest, reply: FastifyReply) => Promise<void>,
) => {
  reply.header('x-trace-id', req.id);
  try {
    await meter(req, reply);
  } catch (refusal) {
    if (refusal instanceof HttpProblem) {
      reply.headers(refusal.headers);
      return sendProblem(req, reply, refusal.code, refusal.detail, refusal.extensions);
    }
    if (isDatabaseUnavailable(refusal)) return answerUnavailable(req, reply, refusal);
    req.log.error({ err: refusal }, 'unhandled error');
    return sendProblem(
      req,
      reply,
      'internal_error',
      'something went wrong on our side; quote the trace_id when you report it',
    );
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendProblem(
      req,
      reply,
      'not_found',
      `no resource at ${req.method} ${req.url.split('?')[0]}: a path segment is longer than any id`,
    );
  if (error.code === 'FST_ERR_BAD_URL') return sendProblem(req, reply, 'bad_request', 'the URL is not validly encoded');
  return sendProblem(req, reply, 'bad_request', 'the request could not be read');
};
