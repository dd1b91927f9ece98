import { type ProductCommand, type ProductFields, productDecider } from '../domain/product.js';
import { required } from '../domain/required.js';
import { newId } from '../ids.js';
import { type Caller, type CommandDeps, execute } from './context.js';
import { stateOf } from './handle.js';
import { productStream } from './streams.js';

export const createProduct = async (
  deps: CommandDeps,
  fields: ProductFields,
  caller: Caller,
  /** From the request's Idempotency-Key: the product's id, so a run after a crash finds the product made. */
  operation?: { id: string; resumed: boolean },
) => {
  const productId = operation?.id ?? newId();
  if (operation?.resumed) {
    const state = await stateOf(deps, productStream(productId), productDecider);
    if (state) return state;
  }
  const result = await execute(
    deps,
    productStream(productId),
    productDecider,
    (now): ProductCommand => ({ type: 'CreateProduct', data: { ...fields, productId, now } }),
    caller,
  );
  return required(result.state, `product ${productId}`);
};

export const updateProduct = async (
  deps: CommandDeps,
  productId: string,
  changes: Partial<ProductFields>,
  caller: Caller,
) => {
  const result = await execute(
    deps,
    productStream(productId),
    productDecider,
    (now): ProductCommand => ({ type: 'UpdateProduct', data: { changes, now } }),
    caller,
  );
  return required(result.state, `product ${productId}`);
};
