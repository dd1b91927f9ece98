/**
 * Fault injection for the crash tests and the simulator, off unless armed.
 *
 * Out of process (`SVC_FAULT_KILL_AT` names a step): the process kills itself with SIGKILL
 * the first time it reaches that step, exactly as if the machine died there. Nothing is
 * cleaned up and no handler runs, so the test sees what a real crash leaves behind.
 * `loadConfig` refuses the variable in production.
 *
 * In process (the simulator, src/sim): a hook decides at each point whether the instance
 * dies there; the hook cuts the instance off its database and throws, see src/sim/crash.ts.
 *
 * Steps `SVC_FAULT_KILL_AT` accepts (in pipeline order):
 * - `after-deliver-reservation`: the inventory handed an item's keys over, the order has not
 *   recorded it (an item before the last: the last one's hand-over is part of the capture's write)
 * - `after-record-delivery`: one item of several is delivered, the others and the capture are not
 * - `before-capture`: every key but the last item's is handed over; the last hand-over, its
 *   delivery, the capture and the sale entries (one write) are not recorded
 * - `after-sale-credited`: the order's sale entries are posted (with the capture, or the first
 *   of them when a later run posts what a crash left), the answer is not given
 *
 * And one of a sandbox's first start:
 * - `before-demo-token-kept`: the demo supplier and its token are registered; the products
 *   and the token's file in the data folder are not
 *
 * More points only the simulator arms:
 * - `timer-after-run`: a timer's handler finished (its appends are committed), its row is not yet done
 * - `projector-batch`: a projector applied a batch inside its transaction, the checkpoint is not committed
 * - `after-supplier-call`: a supplier answered, its outcome is not recorded
 * - `after-health-outcome`: a health outcome is recorded, the step that caused it is not finished
 */
export const FAULT_STEPS = [
  'after-deliver-reservation',
  'after-record-delivery',
  'before-capture',
  'after-sale-credited',
] as const;
export type FaultStep = (typeof FAULT_STEPS)[number];
export const START_FAULT_STEPS = ['before-demo-token-kept'] as const;
export const SIM_FAULT_POINTS = [
  ...FAULT_STEPS,
  'timer-after-run',
  'projector-batch',
  'after-supplier-call',
  'after-health-outcome',
] as const;
export type FaultPoint = (typeof SIM_FAULT_POINTS)[number] | (typeof START_FAULT_STEPS)[number];

/**
 * Rules the simulator's own test can break on purpose, to show that the simulation catches
 * a broken rule with a replayable seed. Never set outside that test.
 */
export type BugSwitch = 'skip-refund-entry';

interface Hooks {
  point?: (point: FaultPoint) => void;
  bugs: Set<BugSwitch>;
}

const armed = process.env.SVC_FAULT_KILL_AT;
const hooks: Hooks = { bugs: new Set() };

export const faultPoint = (point: FaultPoint): void => {
  if (armed === point) process.kill(process.pid, 'SIGKILL');
  hooks.point?.(point);
};

export const bugSwitch = (name: BugSwitch): boolean => hooks.bugs.size > 0 && hooks.bugs.has(name);

/** The simulator's hooks (src/sim only). */
export const setFaultHook = (hook: ((point: FaultPoint) => void) | undefined): void => {
  hooks.point = hook;
};
export const setBugSwitches = (bugs: Iterable<BugSwitch>): void => {
  hooks.bugs = new Set(bugs);
};
