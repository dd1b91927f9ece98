import {
  type CertificationRun,
  type Check,
  demand,
  healthcheckCheck,
  isObject,
  refusedSignature,
  sameJson,
  show,
} from './certification-run.js';

/**
 * The top-up contract against the spec's sandbox accounts: 100001 validates and executes,
 * 999999 is `invalid_user_id`, 888888 validates and its execute fails `topup_failed`, 777777
 * validates and executes (its execute is sent twice: the second answer must be the replay).
 * The buyer's form carries `user_id` only.
 */

const BUYER_COUNTRY = 'DE';
const RECEIPT_MAX = 128;

// eslint-disable-next-line max-lines-per-function -- the certification checks in the spec's order
export const runTopupChecks = async (run: CertificationRun) => {
  const { target, deps } = run;
  const t = deps.timeouts;
  const id = () => `cert-${deps.newId()}`;
  const validateBody = (operationId: string, userId: string) => ({
    operation_id: operationId,
    offer_id: target.endpoint.offerId,
    external_ref: target.externalRef,
    product_id: target.productId,
    quantity: 1,
    buyer_country: BUYER_COUNTRY,
    form_fields: { user_id: userId },
  });
  const executeBody = (operationId: string, userId: string) => ({
    operation_id: operationId,
    // a retried execute carries the same order, as the service's own retries do
    order_id: operationId.replace(/^cert-/, 'cert-order-'),
    offer_id: target.endpoint.offerId,
    external_ref: target.externalRef,
    quantity: 1,
    form_fields: { user_id: userId },
  });

  /** validate answers 200 {operation_id, valid: true, account_label}. */
  const validates = async (c: Check, operationId: string, userId: string) => {
    const res = await c.answer('POST', '/topup/validate', validateBody(operationId, userId), t.validateMs);
    demand(res.status === 200, `validate ${userId}: HTTP ${res.status} ${show(res.body)}, expected 200`);
    demand(
      isObject(res.body) && res.body.operation_id === operationId,
      `validate ${userId}: body ${show(res.body)} does not echo operation_id`,
    );
    demand(
      res.body.valid === true && typeof res.body.account_label === 'string',
      `validate ${userId}: body ${show(res.body)}, expected valid: true with an account_label`,
    );
  };

  /**
   * Polls the status endpoint at certification's cadence until the operation is terminal.
   * Answers the terminal body.
   */
  const settled = async (c: Check, operationId: string) => {
    for (const wait of run.pollDelays) {
      if (wait > 0) await deps.clock.sleep(wait);
      const res = await c.answer('GET', `/topup/operations/${operationId}`, undefined, t.statusMs);
      demand(res.status === 200, `status poll: HTTP ${res.status} ${show(res.body)}, expected 200`);
      demand(
        isObject(res.body) && res.body.operation_id === operationId,
        `status poll: body ${show(res.body)} does not echo operation_id`,
      );
      if (res.body.status === 'processing') continue;
      demand(
        res.body.status === 'completed' || res.body.status === 'failed',
        `status poll: status ${show(res.body.status)}`,
      );
      return res.body;
    }
    demand(false, `still processing after ${run.pollDelays.length} status polls`);
    return undefined as never;
  };

  /** execute, following a 202 through the status endpoint; answers the final result body. */
  const executes = async (c: Check, operationId: string, userId: string) => {
    const res = await c.answer('POST', '/topup/execute', executeBody(operationId, userId), t.executeMs);
    demand(
      [200, 201, 202].includes(res.status),
      `execute ${userId}: HTTP ${res.status} ${show(res.body)}, expected 201 (or 202)`,
    );
    demand(
      isObject(res.body) && res.body.operation_id === operationId,
      `execute ${userId}: body ${show(res.body)} does not echo operation_id`,
    );
    if (res.status === 202) {
      demand(res.body.status === 'processing', `execute ${userId}: 202 with status ${show(res.body.status)}`);
      return { async: true, result: await settled(c, operationId) };
    }
    return { async: false, result: res.body };
  };

  const completed = (result: Record<string, unknown>, userId: string) => {
    demand(result.status === 'completed', `execute ${userId}: ${show(result)}, expected status 'completed'`);
    demand(
      typeof result.receipt_ref === 'string' &&
        result.receipt_ref.length > 0 &&
        result.receipt_ref.length <= RECEIPT_MAX,
      `receipt_ref ${show(result.receipt_ref)} is not a string of 1 to ${RECEIPT_MAX} characters`,
    );
  };

  await healthcheckCheck(run);

  await run.check(
    'signature_rejected',
    'POST /topup/validate signed with a wrong secret is refused (4xx, e.g. 401)',
    async (c) => {
      refusedSignature(
        await c.answer('POST', '/topup/validate', validateBody(id(), '100001'), t.validateMs, { wrongSecret: true }),
      );
    },
  );

  const cleanOp = id();
  await run.check(
    'validate_valid',
    'POST /topup/validate for user 100001 answers 200 {operation_id, valid: true, account_label}',
    (c) => validates(c, cleanOp, '100001'),
  );

  await run.check(
    'validate_invalid_user',
    "POST /topup/validate for user 999999 answers 200 {valid: false, code: 'invalid_user_id'}",
    async (c) => {
      const operationId = id();
      const res = await c.answer('POST', '/topup/validate', validateBody(operationId, '999999'), t.validateMs);
      demand(res.status === 200, `HTTP ${res.status} ${show(res.body)}, expected 200 (the HTTP status stays 200)`);
      demand(
        isObject(res.body) && res.body.operation_id === operationId && res.body.valid === false,
        `body ${show(res.body)}, expected valid: false`,
      );
      demand(res.body.code === 'invalid_user_id', `code ${show(res.body.code)}, expected 'invalid_user_id'`);
    },
  );

  const first = await run.check(
    'execute_completed',
    "POST /topup/execute for user 100001 answers 201 {status: 'completed', receipt_ref} (or 202, then the status endpoint reports it)",
    async (c) => {
      const outcome = await executes(c, cleanOp, '100001');
      completed(outcome.result, '100001');
      return outcome;
    },
    { needs: ['validate_valid'] },
  );

  await run.check(
    'execute_replay',
    'the same POST /topup/execute again answers 200 with the original result (no second top-up)',
    async (c) => {
      const res = await c.answer('POST', '/topup/execute', executeBody(cleanOp, '100001'), t.executeMs);
      demand(res.status === 200, `HTTP ${res.status} ${show(res.body)}, expected 200`);
      demand(
        sameJson(res.body, first!.result),
        `body ${show(res.body)} differs from the original result ${show(first!.result)}`,
      );
    },
    { needs: ['execute_completed'] },
  );

  await run.check(
    'status_poll',
    "GET /topup/operations/{id} answers 200 {status: 'completed', receipt_ref} (required only when execute answers 202)",
    async (c) => {
      const res = await c.answer('GET', `/topup/operations/${cleanOp}`, undefined, t.statusMs);
      if (!first!.async && (res.status === 404 || res.status === 405)) return; // optional for a supplier that never answers 202
      demand(res.status === 200, `HTTP ${res.status} ${show(res.body)}, expected 200`);
      demand(
        isObject(res.body) && res.body.status === 'completed' && res.body.receipt_ref === first!.result.receipt_ref,
        `body ${show(res.body)}, expected the completed result with receipt_ref ${show(first!.result.receipt_ref)}`,
      );
    },
    { needs: ['execute_completed'] },
  );

  await run.check(
    'execute_failed',
    "user 888888 validates, then POST /topup/execute answers {status: 'failed', code: 'topup_failed'}",
    async (c) => {
      const operationId = id();
      await validates(c, operationId, '888888');
      const { result } = await executes(c, operationId, '888888');
      demand(
        result.status === 'failed' && result.code === 'topup_failed',
        `execute 888888: ${show(result)}, expected status 'failed' with code 'topup_failed'`,
      );
      demand(typeof result.message === 'string', `execute 888888: ${show(result)} has no message`);
    },
  );

  await run.check(
    'execute_retried',
    'user 777777 validates and executes; the retried execute answers 200 with the same result (delivered once)',
    async (c) => {
      const operationId = id();
      await validates(c, operationId, '777777');
      const { result } = await executes(c, operationId, '777777');
      completed(result, '777777');
      const retry = await c.answer('POST', '/topup/execute', executeBody(operationId, '777777'), t.executeMs);
      demand(retry.status === 200, `the retry: HTTP ${retry.status} ${show(retry.body)}, expected 200`);
      demand(
        sameJson(retry.body, result),
        `the retry answered ${show(retry.body)}, not the original result ${show(result)}`,
      );
    },
  );
};
