import { hashToken, keyedTokenHash, newSupplierToken } from '../crypto/tokens.js';
import { type RateLimitOverrides, type SupplierCommand, supplierDecider } from '../domain/supplier.js';
import { deriveId, newId } from '../ids.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { supplierStream } from './streams.js';

/** Registers a supplier and issues its first token; the token is returned once, only its keyed hash is kept. */
export const registerSupplier = async (
  deps: CommandDeps,
  name: string,
  caller: Caller,
  /** From the request's Idempotency-Key: the supplier's id, so a run after a crash finds the supplier it registered. */
  operationId?: string,
) => {
  const supplierId = operationId ?? newId();
  const registered = operationId ? await stateOf(deps, supplierStream(supplierId), supplierDecider) : undefined;
  if (registered?.id) {
    // the first run's answer was lost with its token, which nobody has seen: that token is
    // revoked and a fresh one shown instead (only the key's holder knows this supplier id)
    for (const [tokenId, token] of Object.entries(registered.tokens))
      if (!token.revoked) await revokeToken(deps, supplierId, tokenId, caller);
  } else {
    await execute(
      deps,
      supplierStream(supplierId),
      supplierDecider,
      (now): SupplierCommand => ({ type: 'RegisterSupplier', data: { supplierId, name, now } }),
      caller,
    );
  }
  const { token, tokenId } = await issueToken(deps, supplierId, caller);
  return { supplier: { id: supplierId, name }, token, tokenId };
};

/**
 * Issues a token. With `operation` (the request's Idempotency-Key) its id is the operation's
 * n-th derived id: a resumed run (its first owner crashed) finds the tokens earlier runs
 * issued, which nobody has seen, revokes them and issues the next one, so one operation
 * leaves one working token. A fresh run has nothing to find and reads nothing.
 */
export const issueToken = async (
  deps: CommandDeps,
  supplierId: string,
  caller: Caller,
  operation?: { id: string; resumed: boolean },
) => {
  const token = newSupplierToken(deps.env);
  let tokenId = operation === undefined ? newId() : deriveId(operation.id, 0);
  if (operation?.resumed) {
    const state = await stateOf(deps, supplierStream(supplierId), supplierDecider);
    let run = 0;
    for (let held = state?.tokens[tokenId]; held; held = state?.tokens[tokenId]) {
      if (!held.revoked) await revokeToken(deps, supplierId, tokenId, caller);
      tokenId = deriveId(operation.id, ++run);
    }
  }
  await execute(
    deps,
    supplierStream(supplierId),
    supplierDecider,
    (now): SupplierCommand => ({
      type: 'IssueToken',
      data: { tokenId, tokenHash: keyedTokenHash(deps.secretKey, hashToken(token)), environment: deps.env, now },
    }),
    caller,
  );
  return { token, tokenId };
};

export const revokeToken = (deps: CommandDeps, supplierId: string, tokenId: string, caller: Caller) =>
  execute(
    deps,
    supplierStream(supplierId),
    supplierDecider,
    (now): SupplierCommand => ({ type: 'RevokeToken', data: { tokenId, now } }),
    caller,
  );

/** Raises (or lowers) a supplier's rate limits; the answer is the supplier's overrides after the change. */
export const setRateLimits = async (
  deps: CommandDeps,
  supplierId: string,
  limits: RateLimitOverrides,
  caller: Caller,
) => {
  const { state } = await execute(
    deps,
    supplierStream(supplierId),
    supplierDecider,
    (now): SupplierCommand => ({ type: 'SetRateLimits', data: { limits, now } }),
    caller,
  );
  return state.rateLimits;
};

/** A supplier's overrides as its stream says (404 for an unknown supplier). */
export const rateLimitsOf = async (deps: CommandDeps, supplierId: string) => {
  const state = await stateOf(deps, supplierStream(supplierId), supplierDecider);
  if (!state?.id) return null;
  return state.rateLimits;
};
