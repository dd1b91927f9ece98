import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ProblemCode, problemCodes } from './problem-codes.js';

/** An HTTP-level refusal (auth, limits, idempotency) raised outside the domain. */
export class HttpProblem extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const errorsUrl = (req: FastifyRequest) => `${req.protocol}://${req.host}/api/v1/errors`;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  trace_id: string;
  [extension: string]: unknown;
}

export const problemBody = (
  req: FastifyRequest,
  code: ProblemCode,
  detail: string,
  extensions: Record<string, unknown> = {},
): ProblemBody => {
  const { status, title } = problemCodes[code];
  return { type: `${errorsUrl(req)}#${code}`, title, status, detail, code, trace_id: String(req.id), ...extensions };
};

export const sendProblem = (
  req: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  extensions: Record<string, unknown> = {},
) => {
  const body = problemBody(req, code, detail, extensions);
  return reply.code(body.status).type('application/problem+json; charset=utf-8').send(body);
};
