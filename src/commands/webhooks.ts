import { sql } from 'kysely';
import { newWebhookSecret } from '../crypto/signature.js';
import { DomainError, invalidInput } from '../domain/errors.js';
import { type SupplierCommand, supplierDecider } from '../domain/supplier.js';
import {
  type EndpointSettings,
  MAX_ENDPOINTS_PER_SUPPLIER,
  type WebhookEndpointCommand,
  webhookEndpointDecider,
  type WebhookEndpointState,
  type WebhookEventType,
} from '../domain/webhook-endpoint.js';
import { required } from '../domain/required.js';
import { newId } from '../ids.js';
import { checkTarget } from '../net/targets.js';
import { fixtureData } from '../outbound/webhook-events.js';
import { type AttemptResult, sendAttempt } from '../outbound/webhook-send.js';
import { type Caller, type CommandDeps, execute, executeSteps } from './context.js';
import { stateOf } from './handle.js';
import { supplierStream, webhookStream } from './streams.js';

const SECRET_OVERLAP_MS = 24 * 60 * 60_000;

const badUrl = (reason: string) => invalidInput([{ input: 'url', message: reason }]);

/** Public HTTPS hosts only (unless private targets are allowed), checked on every address the name resolves to. */
const requireTarget = async (deps: CommandDeps, url: string) => {
  const check = await checkTarget(url, deps.targets);
  if (!check.ok) throw badUrl(check.reason);
};

export const loadEndpoint = async (
  deps: CommandDeps,
  supplierId: string,
  endpointId: string,
): Promise<WebhookEndpointState> => {
  const state = await stateOf(deps, webhookStream(endpointId), webhookEndpointDecider);
  if (!state || state.deleted || state.supplierId !== supplierId)
    throw new DomainError('not_found', `webhook endpoint ${endpointId} not found`);
  return state;
};

const onEndpoint = async (
  deps: CommandDeps,
  endpointId: string,
  command: (now: string) => WebhookEndpointCommand,
  caller: Caller,
) => {
  const result = await execute(deps, webhookStream(endpointId), webhookEndpointDecider, command, caller);
  // after a command the endpoint exists: only CreateEndpoint decides on none, and it makes one
  return { ...result, state: required(result.state, `webhook endpoint ${endpointId}`) };
};

export const createEndpoint = async (
  deps: CommandDeps,
  supplierId: string,
  settings: EndpointSettings,
  caller: Caller,
  /** From the request's Idempotency-Key: the endpoint's id, so a run after a crash finds the endpoint it made. */
  operationId?: string,
) => {
  const endpointId = operationId ?? newId();
  if (operationId) {
    const made = await stateOf(deps, webhookStream(endpointId), webhookEndpointDecider);
    // the first run made it and its answer (with the secret, shown once) was lost: shown now
    if (made && !made.deleted && made.supplierId === supplierId)
      return { endpoint: made, secret: deps.secretBox.open(made.secretSealed) };
  }
  await requireTarget(deps, settings.url);
  await execute(
    deps,
    supplierStream(supplierId),
    supplierDecider,
    (now): SupplierCommand => ({
      type: 'ClaimWebhookSlot',
      data: { endpointId, max: MAX_ENDPOINTS_PER_SUPPLIER, now },
    }),
    caller,
  );
  const secret = newWebhookSecret();
  const result = await onEndpoint(
    deps,
    endpointId,
    (now) => ({
      type: 'CreateEndpoint',
      data: { ...settings, endpointId, supplierId, secretSealed: deps.secretBox.seal(secret), now },
    }),
    caller,
  );
  return { endpoint: result.state, secret };
};

export const updateEndpoint = async (
  deps: CommandDeps,
  supplierId: string,
  endpointId: string,
  changes: Partial<EndpointSettings>,
  caller: Caller,
) => {
  await loadEndpoint(deps, supplierId, endpointId);
  if (changes.url !== undefined) await requireTarget(deps, changes.url);
  return (await onEndpoint(deps, endpointId, (now) => ({ type: 'UpdateEndpoint', data: { changes, now } }), caller))
    .state;
};

export const deleteEndpoint = async (
  deps: CommandDeps,
  supplierId: string,
  endpointId: string,
  caller: Caller,
  /** Run again after its answer was lost: an endpoint of this supplier deleted already is this run's to finish. */
  resumed = false,
) => {
  const state = await stateOf(deps, webhookStream(endpointId), webhookEndpointDecider);
  const deletedAlready = resumed && state?.supplierId === supplierId && state.deleted;
  if (!deletedAlready) {
    await loadEndpoint(deps, supplierId, endpointId);
    await onEndpoint(deps, endpointId, (now) => ({ type: 'DeleteEndpoint', data: { now } }), caller);
  }
  await execute(
    deps,
    supplierStream(supplierId),
    supplierDecider,
    (now): SupplierCommand => ({ type: 'ReleaseWebhookSlot', data: { endpointId, now } }),
    caller,
  );
};

export const rotateEndpointSecret = async (
  deps: CommandDeps,
  supplierId: string,
  endpointId: string,
  caller: Caller,
  /** From the request's Idempotency-Key: a run again after a lost answer finds its rotation made. */
  rotationId?: string,
) => {
  await loadEndpoint(deps, supplierId, endpointId);
  const secret = newWebhookSecret();
  const result = await onEndpoint(
    deps,
    endpointId,
    (now) => ({
      type: 'RotateSecret',
      data: {
        secretSealed: deps.secretBox.seal(secret),
        overlapMs: SECRET_OVERLAP_MS,
        ...(rotationId !== undefined && { rotationId }),
        now,
      },
    }),
    caller,
  );
  const endpoint = result.state;
  // made by an earlier run: its secret is the one that run made, kept sealed in the event
  const made = result.events.length > 0 ? secret : deps.secretBox.open(endpoint.secretSealed);
  return { endpoint, secret: made };
};

export const disableEndpoint = (
  deps: CommandDeps,
  endpointId: string,
  reason: 'consecutive_failures' | 'gone' | 'supplier_request',
  consecutiveFailures: number,
  caller: Caller,
) =>
  onEndpoint(
    deps,
    endpointId,
    (now) => ({ type: 'DisableEndpoint', data: { reason, consecutiveFailures, now } }),
    caller,
  );

/**
 * Test-fire: a signed canned fixture of a real event type with `test_fire: true`, sent at
 * once and logged; it leaves the consecutive-failure counter alone.
 */
export const testFire = async (
  deps: CommandDeps,
  endpoint: WebhookEndpointState,
  type: WebhookEventType,
): Promise<AttemptResult & { deliveryId: string }> => {
  const now = deps.clock.now();
  const eventId = newId();
  const deliveryId = newId();
  const body = JSON.stringify({
    id: eventId,
    type,
    mode: deps.env === 'sandbox' ? 'test' : 'live',
    api_version: 'v1',
    test_fire: true,
    created_at: now.toISOString(),
    data: fixtureData(type, now.toISOString()),
  });
  await deps.db
    .insertInto('webhook_deliveries')
    .values({
      id: deliveryId,
      event_id: eventId,
      event_type: type,
      supplier_id: endpoint.supplierId,
      endpoint_id: endpoint.id,
      body,
      test_fire: true,
      status: 'pending',
      attempts: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const result = await sendAttempt(
    deps,
    endpoint,
    { id: deliveryId, eventId, eventType: type, body, supplierId: endpoint.supplierId },
    1,
    (succeeded) => ({ status: succeeded ? 'succeeded' : 'failed' }),
  );
  return { ...result, deliveryId };
};

/** Re-enabling runs a test-fire first: a 2xx makes the endpoint active and resets its counter. */
export const enableEndpoint = async (
  deps: CommandDeps,
  supplierId: string,
  endpointId: string,
  caller: Caller,
  /** Settings changed in the same request: written with the enabling, or not at all. */
  changes: Partial<EndpointSettings> = {},
) => {
  const endpoint = await loadEndpoint(deps, supplierId, endpointId);
  const changing = Object.keys(changes).length > 0;
  if (endpoint.status === 'active')
    return changing ? updateEndpoint(deps, supplierId, endpointId, changes, caller) : endpoint;
  if (changes.url !== undefined) await requireTarget(deps, changes.url);
  // the probe goes where the endpoint will send once enabled; a failing one leaves the
  // endpoint as it was, its changes included (one append for both, or none)
  const probe = await testFire(deps, { ...endpoint, settings: { ...endpoint.settings, ...changes } }, 'order.paid');
  const result = await executeSteps(
    deps,
    webhookStream(endpointId),
    webhookEndpointDecider,
    (now): WebhookEndpointCommand[] => [
      ...(changing ? [{ type: 'UpdateEndpoint' as const, data: { changes, now } }] : []),
      {
        type: 'EnableEndpoint',
        data: { probe: { succeeded: probe.succeeded, responseStatus: probe.responseStatus }, now },
      },
    ],
    caller,
  ).catch((error) => {
    if (error instanceof DomainError)
      throw new DomainError(error.code, error.detail, {
        probe: {
          delivery_id: probe.deliveryId,
          event_type: 'order.paid',
          response_status: probe.responseStatus,
          duration_ms: probe.durationMs,
          succeeded: false,
        },
      });
    throw error;
  });
  await deps.db
    .insertInto('webhook_endpoint_failures')
    .values({ endpoint_id: endpointId, consecutive_failures: 0 })
    .onConflict((oc) => oc.column('endpoint_id').doUpdateSet({ consecutive_failures: 0 }))
    .execute();
  return required(result.state, `webhook endpoint ${endpointId}`);
};

/** Consecutive failed attempts of an endpoint: any 2xx resets the count. */
export const countAttempt = async (deps: CommandDeps, endpointId: string, succeeded: boolean): Promise<number> => {
  if (succeeded) {
    // a success writes only when there is a streak to end: the usual answer then takes no
    // row lock, so the attempts to one endpoint do not queue for its counter's row
    await sql`update webhook_endpoint_failures set consecutive_failures = 0
      where endpoint_id = ${endpointId} and consecutive_failures <> 0`.execute(deps.db);
    return 0;
  }
  const { rows } = await sql<{ consecutive_failures: number }>`
    insert into webhook_endpoint_failures (endpoint_id, consecutive_failures) values (${endpointId}, ${succeeded ? 0 : 1})
    on conflict (endpoint_id) do update set consecutive_failures =
      case when ${succeeded} then 0 else webhook_endpoint_failures.consecutive_failures + 1 end
    returning consecutive_failures`.execute(deps.db);
  return required(rows[0], `the failure count of webhook endpoint ${endpointId}`).consecutive_failures;
};
