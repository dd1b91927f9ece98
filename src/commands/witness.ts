import type { Cosignature } from '../sdk/ledger/cosignature.js';
import { type Caller, type CommandDeps, metadataFor, waitForReadModels } from './context.js';
import { witnessStream } from './streams.js';

/** A witness's cosignature of one of a supplier's heads, as the ledger keeps it. */
export interface HeadCosigned {
  supplierId: string;
  witnessKeyId: string;
  witnessKey: string;
  cosignedAt: string;
  treeSize: number;
  signedAt: string;
  checkpoint: Cosignature['checkpoint'];
  signature: string;
  at: string;
}

/**
 * Keeps a cosignature the caller checked (the head is the ledger's and consistent with it,
 * the witness's signature holds): one event in the supplier's witness stream, read back
 * by the `ledger-witnesses` read model. Appended at `any`: two cosignatures never conflict,
 * and the same one twice is kept once by the read model.
 */
export const recordCosignature = async (
  deps: CommandDeps,
  supplierId: string,
  c: Cosignature,
  head: { tree_size: number; signed_at: string },
  caller: Caller,
) => {
  const at = deps.clock.now();
  const data: HeadCosigned = {
    supplierId,
    witnessKeyId: c.witness_key_id,
    witnessKey: c.witness_key,
    cosignedAt: c.cosigned_at,
    treeSize: head.tree_size,
    signedAt: head.signed_at,
    checkpoint: c.checkpoint,
    signature: c.signature,
    at: at.toISOString(),
  };
  const { position } = await deps.store.append(
    witnessStream(supplierId),
    [{ type: 'LedgerHeadCosigned', data, metadata: metadataFor(deps.env, caller) }],
    'any',
    at,
  );
  await waitForReadModels(deps, position);
};
