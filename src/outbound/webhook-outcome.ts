/**
 * How one webhook attempt ended, in one word the delivery log shows beside its status and
 * error: a receiver that is not running reads `connection_refused`, not a status of 0.
 */
export const DELIVERY_OUTCOMES = [
  'succeeded',
  'http_error',
  'connection_refused',
  'connection_failed',
  'timeout',
  'target_refused',
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** The error an attempt logs when nothing accepted the connection at the endpoint's address. */
export const CONNECTION_REFUSED = 'connection refused';

/** Whether a call failed because the connection was refused (nothing listens there). */
export const connectionRefused = (error: unknown): boolean => {
  for (let e = error; e instanceof Error; e = e.cause)
    if ((e as { code?: unknown }).code === 'ECONNREFUSED') return true;
  return false;
};

/** The outcome of a logged attempt, from what the log keeps: its error text and whether it succeeded. */
export const deliveryOutcome = (succeeded: boolean, error: string | null): DeliveryOutcome => {
  if (succeeded) return 'succeeded';
  if (error === null) return 'http_error';
  if (error === CONNECTION_REFUSED) return 'connection_refused';
  if (error.startsWith('target refused')) return 'target_refused';
  if (error.startsWith('no answer')) return 'timeout';
  return 'connection_failed';
};
