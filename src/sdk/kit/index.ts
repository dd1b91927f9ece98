export { startSupplierKit, SANDBOX_ACCOUNTS } from './server.js';
export {
  verifySignature,
  DEFAULT_TOLERANCE_MS,
  type VerifyOptions,
  type VerifyResult,
  type VerifyFailure,
} from './verify.js';
export {
  KIT_ROUTES,
  type KitFault,
  type KitFaults,
  type KitItem,
  type KitOperation,
  type KitOrder,
  type KitRequest,
  type KitReservation,
  type KitRoute,
  type KitState,
  type StockEntry,
  type StockMap,
  type SupplierKit,
  type SupplierKitOptions,
  type TopupAccount,
  type TopupOutcome,
  type ValidateCode,
} from './types.js';
