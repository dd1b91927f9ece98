import { certificationDecider } from '../domain/certification.js';
import { DomainError } from '../domain/errors.js';
import { newId } from '../ids.js';
import { certify, type CertificationReport } from '../outbound/certification.js';
import { certificationKindOf } from './certification-gate.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { endpointOf, loadOffer } from './offers.js';
import { certificationStream } from './streams.js';

export type CertificationResult = CertificationReport & { id: string };

/**
 * Runs the go-live certification against the offer's fulfilment endpoints and records the
 * verdict for the production activation gate. It touches nothing of the offer itself: no
 * order, no ledger entry, no health outcome; only its own result stream is written.
 */
export const certifyOffer = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  caller: Caller,
): Promise<CertificationResult> => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  if (offer.stockMode !== 'declared' || !offer.fulfilment)
    throw new DomainError('stock_mode_mismatch', 'uploaded offers have no fulfilment endpoints to certify');
  const { baseUrl } = offer.fulfilment;
  const kind = await certificationKindOf(deps, offer);
  const report = await certify(
    {
      kind,
      endpoint: endpointOf(deps, offer, deps.clock.now()),
      productId: offer.productId,
      externalRef: offer.terms.externalRef,
      unitPrice: offer.terms.price,
    },
    { clock: deps.clock, policy: deps.targets, timeouts: deps.timeouts, newId },
  );
  const id = newId();
  await execute(
    deps,
    certificationStream(supplierId),
    certificationDecider,
    (now) => ({
      type: 'RecordCertification' as const,
      data: {
        certificationId: id,
        supplierId,
        offerId,
        kind,
        baseUrl,
        passed: report.passed,
        failedChecks: report.checks.filter((c) => !c.passed).map((c) => c.name),
        at: now,
      },
    }),
    caller,
  );
  return { id, ...report };
};
