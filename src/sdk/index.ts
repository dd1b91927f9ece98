/**
 * What a supplier takes from this package: the signature check for webhook deliveries and
 * fulfilment calls (Authentication point 4), the reference supplier kit, and the typed
 * API client generated from the service's OpenAPI document.
 */
export {
  DEFAULT_TOLERANCE_MS,
  type VerifyFailure,
  type VerifyOptions,
  type VerifyResult,
  verifySignature,
} from './kit/verify.js';
export * from './kit/index.js';
export {
  createMarketplaceClient,
  type MarketplaceClient,
  type MarketplaceClientOptions,
  type Problem,
  type ProblemCode,
  ProblemError,
} from './client.js';
export type { components, operations, paths } from './api-types.js';
export {
  type LedgerPublicKey,
  LEDGER_KEYS_PATH,
  keyIdOf,
  loadPublicKeys,
  readPublicKeys,
  verifyEd25519,
} from './ledger/keys.js';
export {
  type Checked,
  HEAD_FORMAT,
  readSignedHead,
  type SignedCheckpoint,
  type SignedHead,
} from './ledger/checkpoint.js';
export {
  consistencyProof,
  inclusionPath,
  leafHash,
  nodeHash,
  rootOf,
  verifyConsistencyProof,
  verifyInclusionPath,
} from './ledger/merkle.js';
export {
  ENTRY_FORMAT,
  type InclusionProofAnswer,
  type SignedEntry,
  verifyConsistency,
  verifyInclusion,
} from './ledger/verify.js';
export {
  COSIGNATURE_FORMAT,
  type Cosignature,
  cosignatureText,
  newWitnessKey,
  verifyCosignature,
  witnessKey,
  type WitnessKey,
} from './ledger/cosignature.js';
export {
  describeHead,
  describeOutcome,
  runWitness,
  type WitnessOptions,
  type WitnessOutcome,
  type WitnessRunOptions,
  type WitnessState,
  witnessOnce,
} from './ledger/witness.js';
export { fileWitnessState } from './ledger/witness-state.js';
export { witnessCommand, witnessUsage } from './ledger/witness-command.js';
