/**
 * Fault injection for the crash tests, off unless `SVC_FAULT_KILL_AT` names a step: the
 * process then kills itself with SIGKILL the first time it reaches that step, exactly as
 * if the machine died there. Nothing is cleaned up and no handler runs, so the test sees
 * what a real crash leaves behind. `loadConfig` refuses the variable in production.
 *
 * Steps (in pipeline order):
 * - `after-deliver-reservation`: the inventory handed the keys over, the order has not recorded it
 * - `after-record-delivery`: one item is delivered, others (if any) and the capture are not
 * - `before-capture`: every item is delivered, the payment is not captured
 * - `after-sale-credited`: the first sale entry of the order is posted, the rest are not
 */
export const FAULT_STEPS = ['after-deliver-reservation', 'after-record-delivery', 'before-capture', 'after-sale-credited'] as const;
export type FaultStep = (typeof FAULT_STEPS)[number];

const armed = process.env.SVC_FAULT_KILL_AT;

export const faultPoint = (step: FaultStep): void => {
  if (armed === step) process.kill(process.pid, 'SIGKILL');
};
