import { type CertificationKind, certificationDecider, validCertification } from '../domain/certification.js';
import { DomainError } from '../domain/errors.js';
import type { OfferState } from '../domain/offer.js';
import { productDecider } from '../domain/product.js';
import type { CommandDeps } from './context.js';
import { stateOf } from './handle.js';
import { certificationStream, productStream } from './streams.js';

/** Which contract an offer's endpoints host: top-up products validate and execute. */
export const certificationKindOf = async (deps: CommandDeps, offer: OfferState): Promise<CertificationKind> => {
  const product = await stateOf(deps, productStream(offer.productId), productDecider);
  return product?.type === 'topup' ? 'topup' : 'declared';
};

/**
 * Production only: a declared (or top-up) offer goes live only when its base URL passed a
 * certification of the same contract within the last 30 days. The sandbox needs none.
 */
export const requireCertification = async (deps: CommandDeps, offer: OfferState): Promise<void> => {
  if (deps.env !== 'production' || offer.stockMode !== 'declared' || !offer.fulfilment) return;
  const kind = await certificationKindOf(deps, offer);
  const state = await stateOf(deps, certificationStream(offer.supplierId), certificationDecider);
  if (validCertification(state, offer.fulfilment.baseUrl, kind, deps.clock.now())) return;
  throw new DomainError(
    'certification_required',
    `no passing ${kind} certification of ${offer.fulfilment.baseUrl} in the last 30 days: run POST /offers/${offer.id}/certification first`,
    { base_url: offer.fulfilment.baseUrl, kind },
  );
};
