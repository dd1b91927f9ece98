import { type NewDestination, payoutDestinationsDecider } from '../domain/payout-destination.js';
import { newId } from '../ids.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { payoutDestinationsStream } from './streams.js';

export const loadPayoutDestinations = async (deps: CommandDeps, supplierId: string) =>
  await stateOf(deps, payoutDestinationsStream(supplierId), payoutDestinationsDecider);

export const addPayoutDestination = async (
  deps: CommandDeps,
  supplierId: string,
  input: NewDestination & { destinationId?: string },
  caller: Caller,
) => {
  const destinationId = input.destinationId ?? `pd_${newId()}`;
  const { state } = await execute(
    deps,
    payoutDestinationsStream(supplierId),
    payoutDestinationsDecider,
    (now) => ({ type: 'AddPayoutDestination' as const, data: { ...input, supplierId, destinationId, now } }),
    caller,
  );
  return { state, destinationId };
};

/** A command on one of the supplier's destinations, named by its type: the destinations' state after it. */
const onDestination =
  (type: 'RemovePayoutDestination' | 'SetDefaultPayoutDestination') =>
  async (deps: CommandDeps, supplierId: string, destinationId: string, caller: Caller) =>
    (
      await execute(
        deps,
        payoutDestinationsStream(supplierId),
        payoutDestinationsDecider,
        (now) => ({ type, data: { supplierId, destinationId, now } }),
        caller,
      )
    ).state;

export const removePayoutDestination = onDestination('RemovePayoutDestination');
export const setDefaultPayoutDestination = onDestination('SetDefaultPayoutDestination');
