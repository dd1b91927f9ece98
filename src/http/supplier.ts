import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal.js';
import { HttpProblem } from './problem.js';

/** The calling supplier; access control has already refused everyone else on supplier routes. */
export const supplierOf = (req: FastifyRequest): Extract<Principal, { kind: 'supplier' }> => {
  if (req.principal.kind !== 'supplier') throw new HttpProblem('unauthorized', 'a supplier token is required');
  return req.principal;
};

export const callerOf = (req: FastifyRequest) => ({
  correlationId: String(req.id),
  ...(req.principal.kind === 'supplier' && { supplierId: req.principal.supplierId }),
});
