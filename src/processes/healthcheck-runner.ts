import type { CommandDeps } from '../commands/context.js';
import { execute } from '../commands/context.js';
import { endpointOf } from '../commands/offers.js';
import { offerStream } from '../commands/streams.js';
import {
  type HealthcheckAction,
  type HealthcheckInput,
  type HealthcheckOffer,
  healthcheckWorkflow,
} from '../domain/fulfilment-process.js';
import { type OfferCommand, offerDecider, type OfferState } from '../domain/offer.js';
import { required } from '../domain/required.js';
import { faultPoint } from '../faults.js';
import { probeHealthcheck } from '../outbound/fulfilment-client.js';
import { timerCaller } from './caller.js';
import { loadOffer } from './order-run.js';
import type { DueTimer } from './timers.js';
import type { WorkflowRunner } from './workflow-runner.js';

interface HealthcheckRun {
  deps: CommandDeps;
  t: DueTimer;
  offer: OfferState | null;
}

/** GET /healthcheck (5 s, one attempt), its result recorded on the offer, which decides what it means. */
const probe = async (r: HealthcheckRun): Promise<HealthcheckInput> => {
  const { deps } = r;
  // probed only when the offer is there (the decision says so)
  const offer = required(r.offer, `the offer of timer ${r.t.kind} ${r.t.key}`);
  const result = await probeHealthcheck(endpointOf(deps, offer, deps.clock.now()), {
    clock: deps.clock,
    policy: deps.targets,
    timeoutMs: deps.timeouts.healthcheckMs,
    metrics: deps.metrics,
  });
  faultPoint('after-supplier-call');
  const record = (at: string): OfferCommand => ({
    type: 'RecordScheduledHealthcheck',
    data: { probe: result, runId: r.t.dueAt.toISOString(), now: at },
  });
  const recorded = await execute(deps, offerStream(offer.id), offerDecider, record, timerCaller(r.t));
  return { type: 'HealthcheckRecorded', offer: recorded.state, now: deps.clock.now() };
};

/** Healthchecks: every 5 minutes while active, every 10 in cooldown. */
export const healthcheckRunner: WorkflowRunner<
  CommandDeps,
  HealthcheckRun,
  HealthcheckOffer | null,
  HealthcheckInput,
  HealthcheckAction
> = {
  workflow: healthcheckWorkflow,
  stateOf: () => healthcheckWorkflow.initialState,
  perform: { probeHealthcheck: probe },
  start: {
    'offer.healthcheck': async (deps, t) => {
      const offer = await loadOffer(deps, t.key);
      return [
        { deps, t, offer },
        { type: 'HealthcheckDue', offer },
      ];
    },
  },
};
