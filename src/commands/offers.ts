import { newFulfilmentSecret } from '../crypto/signature.js';
import { DomainError, invalidInput } from '../domain/errors.js';
import { inventoryDecider } from '../domain/inventory.js';
import { type OfferCommand, offerDecider, type OfferState, type OfferTerms, type StockMode } from '../domain/offer.js';
import { pricingRuleDecider } from '../domain/pricing-rule.js';
import { productDecider } from '../domain/product.js';
import { required } from '../domain/required.js';
import { type SupplierCommand, supplierDecider } from '../domain/supplier.js';
import { newId } from '../ids.js';
import { checkTarget } from '../net/targets.js';
import { probeHealthcheck, type SupplierEndpoint } from '../outbound/fulfilment-client.js';
import type { OfferView } from '../resources/offer-resource.js';
import { requireCertification } from './certification-gate.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { inventoryStream, offerStream, pricingRuleStream, productStream, supplierStream } from './streams.js';

/** During a fulfilment secret rotation the old secret keeps signing for this long. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60_000;

export interface NewOffer {
  productId: string;
  stockMode: StockMode;
  price: number;
  externalRef: string;
  lowStockThreshold: number;
  deliverySlaMinutes?: number;
  deliveryTime?: string;
  declaredStock?: number;
  fulfilmentBaseUrl?: string;
}

const unknownOffer = (offerId: string) => new DomainError('not_found', `offer ${offerId} not found`);

/** The offer's state for its owner; another supplier's offer does not exist for the caller (404). */
export const ownOffer = async (deps: CommandDeps, supplierId: string, offerId: string) => {
  const offer = await stateOf(deps, offerStream(offerId), offerDecider);
  if (!offer || offer.supplierId !== supplierId) throw unknownOffer(offerId);
  return offer;
};

/** The offer and its inventory as their owner sees them. */
export const loadOffer = async (deps: CommandDeps, supplierId: string, offerId: string): Promise<OfferView> => {
  const offer = await ownOffer(deps, supplierId, offerId);
  const inventory = await stateOf(deps, inventoryStream(offerId), inventoryDecider);
  return { offer, inventory };
};

const badField = (input: string, message: string) => invalidInput([{ input, message }]);

const requireTarget = async (deps: CommandDeps, baseUrl: string) => {
  const check = await checkTarget(baseUrl, deps.targets);
  if (!check.ok) throw badField('fulfilment.base_url', check.reason);
};

export const createOffer = async (
  deps: CommandDeps,
  supplierId: string,
  input: NewOffer,
  caller: Caller,
  /**
   * From the request's Idempotency-Key: the offer's id, so a resumed run (its first owner
   * crashed) finds the offer it created. Only a resumed run looks: a fresh one that finds its
   * slot's offer written meets a racing create, and is offer_exists.
   */
  operation?: { id: string; resumed: boolean },
): Promise<OfferView> => {
  await checkStockMode(deps, input);
  const product = await sellableProduct(deps, input);
  const offerId = await claimSlot(deps, supplierId, input.productId, operation?.id ?? newId(), caller);
  if (operation?.resumed && offerId === operation.id) {
    // this operation's own offer, created by a run whose answer was lost: the same answer again
    const existing = await stateOf(deps, offerStream(offerId), offerDecider);
    if (existing) return createdView(deps, existing);
  }
  const secret = input.stockMode === 'declared' ? newFulfilmentSecret() : undefined;
  const result = await execute(
    deps,
    offerStream(offerId),
    offerDecider,
    (now) =>
      createCommand(deps, { offerId, supplierId, input, productSellable: product.status === 'sellable', secret }, now),
    caller,
  );
  const inventory = await stateOf(deps, inventoryStream(offerId), inventoryDecider);
  return { offer: required(result.state, `offer ${offerId}`), inventory, ...(secret && { secret }) };
};

/** An uploaded offer takes none of a declared offer's fields; a declared one needs a reachable fulfilment URL. */
const checkStockMode = async (deps: CommandDeps, input: NewOffer) => {
  if (input.stockMode === 'declared') {
    if (input.fulfilmentBaseUrl === undefined) throw badField('fulfilment', 'required for a declared offer');
    return requireTarget(deps, input.fulfilmentBaseUrl);
  }
  const declaredOnly = (
    [
      ['fulfilment', input.fulfilmentBaseUrl],
      ['declared_stock', input.declaredStock],
      ['delivery_sla_minutes', input.deliverySlaMinutes],
      ['delivery_time', input.deliveryTime],
    ] as const
  ).filter(([, v]) => v !== undefined);
  if (declaredOnly.length > 0)
    throw invalidInput(
      declaredOnly.map(([f]) => ({ input: f, message: 'must be omitted for an uploaded offer' })),
      `${declaredOnly.map(([f]) => f).join(', ')} must be omitted for an uploaded offer`,
    );
};

/** The offer's product, refused before the slot is claimed, so a refusal leaves nothing behind (the decider judges it too). */
const sellableProduct = async (deps: CommandDeps, input: NewOffer) => {
  const product = await stateOf(deps, productStream(input.productId), productDecider);
  if (!product) throw badField('product_id', `no product ${input.productId}`);
  if (product.status !== 'sellable')
    throw new DomainError('product_not_sellable', `product ${input.productId} is not sellable`);
  // a top-up is validated and executed by the supplier: there are no keys to upload for it
  if (product.type === 'topup' && input.stockMode === 'uploaded')
    throw badField('stock_mode', 'top-up products take declared offers (the supplier hosts validate and execute)');
  return product;
};

/**
 * Claims the (supplier, product) slot for `offerId` and returns the offer id it holds: a
 * claim whose offer never got written (a crash between the two appends) is taken over.
 */
const claimSlot = async (
  deps: CommandDeps,
  supplierId: string,
  productId: string,
  offerId: string,
  caller: Caller,
): Promise<string> => {
  try {
    await execute(
      deps,
      supplierStream(supplierId),
      supplierDecider,
      (now): SupplierCommand => ({ type: 'ClaimOfferSlot', data: { productId, offerId, now } }),
      caller,
    );
    return offerId;
  } catch (error) {
    const held =
      error instanceof DomainError && error.code === 'offer_exists' ? String(error.extensions.offer_id) : undefined;
    if (!held) throw error;
    const existing = await stateOf(deps, offerStream(held), offerDecider);
    if (existing) throw error;
    return held;
  }
};

const createCommand = (
  deps: CommandDeps,
  offer: { offerId: string; supplierId: string; input: NewOffer; productSellable: boolean; secret: string | undefined },
  now: string,
): OfferCommand => {
  const { input, secret } = offer;
  const uploaded = input.stockMode === 'uploaded';
  return {
    type: 'CreateOffer',
    data: {
      offerId: offer.offerId,
      supplierId: offer.supplierId,
      productId: input.productId,
      productSellable: offer.productSellable,
      stockMode: input.stockMode,
      price: input.price,
      externalRef: input.externalRef,
      lowStockThreshold: input.lowStockThreshold,
      // uploaded keys are handed over at once; declared offers have the allocation window
      deliverySlaMinutes: uploaded ? 0 : (input.deliverySlaMinutes ?? 10),
      deliveryTime: uploaded ? 'instant' : (input.deliveryTime ?? 'within_10_minutes'),
      declaredStock: uploaded ? null : (input.declaredStock ?? 0),
      fulfilment:
        secret && input.fulfilmentBaseUrl
          ? { baseUrl: input.fulfilmentBaseUrl, secretSealed: deps.secretBox.seal(secret) }
          : null,
      at: now,
    },
  };
};

/** A created offer as its create answers it: a declared offer's secret is shown with it (its first answer never arrived). */
const createdView = async (deps: CommandDeps, offer: OfferState): Promise<OfferView> => {
  const inventory = await stateOf(deps, inventoryStream(offer.id), inventoryDecider);
  const secret = offer.fulfilment ? deps.secretBox.open(offer.fulfilment.secretSealed) : undefined;
  return { offer, inventory, ...(secret && { secret }) };
};

/** Runs one offer command on an offer the caller owns. */
const onOffer = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  command: (now: string) => OfferCommand,
  caller: Caller,
) => {
  const view = await loadOffer(deps, supplierId, offerId);
  const result = await execute(deps, offerStream(offerId), offerDecider, command, caller);
  return { ...view, offer: required(result.state, `offer ${offerId}`) };
};

export type OfferChanges = Partial<OfferTerms> & { fulfilmentBaseUrl?: string };

export const updateOffer = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  changes: OfferChanges,
  caller: Caller,
) => {
  if (changes.fulfilmentBaseUrl !== undefined) await requireTarget(deps, changes.fulfilmentBaseUrl);
  // the rule's stream is read before the offer's decision: a rule set in between reprices
  // after this change, as it would have after a change made a moment earlier
  const pricingRuleOn =
    changes.price !== undefined && (await stateOf(deps, pricingRuleStream(offerId), pricingRuleDecider)).rule !== null;
  return onOffer(
    deps,
    supplierId,
    offerId,
    (now) => ({ type: 'UpdateOffer', data: { changes, pricingRuleOn, now } }),
    caller,
  );
};

export const endpointOf = (deps: CommandDeps, offer: OfferState, at: Date): SupplierEndpoint => {
  const f = required(offer.fulfilment, `the fulfilment endpoint of offer ${offer.id}`);
  const secrets = [deps.secretBox.open(f.secretSealed)];
  if (f.previousSecretSealed && f.previousValidUntil && new Date(f.previousValidUntil).getTime() > at.getTime())
    secrets.push(deps.secretBox.open(f.previousSecretSealed));
  return { offerId: offer.id, baseUrl: f.baseUrl, secrets };
};

const probe = (deps: CommandDeps, offer: OfferState) =>
  probeHealthcheck(endpointOf(deps, offer, deps.clock.now()), {
    clock: deps.clock,
    policy: deps.targets,
    timeoutMs: deps.timeouts.healthcheckMs,
    metrics: deps.metrics,
  });

export const activateOffer = async (deps: CommandDeps, supplierId: string, offerId: string, caller: Caller) => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  if (offer.status !== 'active') await requireCertification(deps, offer);
  // the handler runs the probe, the decider judges it
  const result = offer.stockMode === 'declared' && offer.status !== 'active' ? await probe(deps, offer) : undefined;
  return onOffer(
    deps,
    supplierId,
    offerId,
    (now) => ({ type: 'ActivateOffer', data: { ...(result && { probe: result }), now } }),
    caller,
  );
};

export const deactivateOffer = (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  reason: string,
  caller: Caller,
) => onOffer(deps, supplierId, offerId, (now) => ({ type: 'DeactivateOffer', data: { reason, now } }), caller);

export const setDeclaredStock = (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  declaredStock: number,
  caller: Caller,
) => onOffer(deps, supplierId, offerId, (now) => ({ type: 'SetDeclaredStock', data: { declaredStock, now } }), caller);

export const checkFulfilment = async (deps: CommandDeps, supplierId: string, offerId: string, caller: Caller) => {
  const { offer } = await loadOffer(deps, supplierId, offerId);
  if (offer.stockMode !== 'declared')
    throw new DomainError('stock_mode_mismatch', 'uploaded offers have no fulfilment endpoint to check');
  const result = await probe(deps, offer);
  await onOffer(
    deps,
    supplierId,
    offerId,
    (now) => ({ type: 'RecordHealthcheck', data: { probe: result, now } }),
    caller,
  );
  return result;
};

export const rotateFulfilmentSecret = async (
  deps: CommandDeps,
  supplierId: string,
  offerId: string,
  caller: Caller,
  /** From the request's Idempotency-Key: a run again after a lost answer finds its rotation made. */
  rotationId?: string,
) => {
  const secret = newFulfilmentSecret();
  const sealed = deps.secretBox.seal(secret);
  const view = await onOffer(
    deps,
    supplierId,
    offerId,
    (now) => ({
      type: 'RotateFulfilmentSecret',
      data: {
        secretSealed: sealed,
        now,
        overlapMs: SECRET_OVERLAP_MS,
        ...(rotationId !== undefined && { rotationId }),
      },
    }),
    caller,
  );
  // made by an earlier run: its secret is the one that run made, kept sealed in the event
  const current = view.offer.fulfilment?.secretSealed;
  return { ...view, secret: current && current !== sealed ? deps.secretBox.open(current) : secret };
};
