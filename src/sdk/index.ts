/**
 * What a supplier takes from this package: the signature check for webhook deliveries and
 * fulfilment calls (Authentication point 4), and the reference supplier kit.
 */
export { DEFAULT_TOLERANCE_MS, type VerifyFailure, type VerifyOptions, type VerifyResult, verifySignature } from './kit/verify.js';
export * from './kit/index.js';
