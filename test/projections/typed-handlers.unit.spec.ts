import { describe, expect, it } from 'vitest';
import type { ProductEvent } from '../../src/domain/product.js';
import type { RecordedEvent } from '../../src/eventstore/port.js';
import { projector } from '../../src/projections/projector.js';

/**
 * The handlers' types are checked by `npm run typecheck`: each `@ts-expect-error` below
 * fails it the day the error it expects is no longer reported.
 */
describe('typed projection handlers', () => {
  const seen: string[] = [];
  const products = projector<ProductEvent>({
    name: 'typed',
    version: 1,
    tables: [],
    ddl: () => '',
    handlers: {
      ProductCreated: (_db, e) => void seen.push(`${e.data.productId}:${e.data.name}`),
      // @ts-expect-error -- a handler naming another shape: the product id is a string
      ProductUpdated: (_db, e: RecordedEvent<{ productId: number }>) => void seen.push(String(e.data.productId)),
    },
  });

  it('keeps the runtime record: handlers by type, rebuildable unless said otherwise', async () => {
    expect(Object.keys(products.handlers)).toEqual(['ProductCreated', 'ProductUpdated']);
    expect(products.rebuildable).toBe(true);
    const created = { productId: 'prod-1', name: 'Starfall', type: 'game_key', platform: 'steam', region: 'EU' };
    await products.handlers.ProductCreated!(undefined as never, { data: created } as never);
    expect(seen).toEqual(['prod-1:Starfall']);
  });

  it('refuses a key that is no event type of the union', () => {
    const declare = () =>
      projector<ProductEvent>({
        name: 'typo',
        version: 1,
        tables: [],
        ddl: () => '',
        handlers: {
          // @ts-expect-error -- no such event type
          ProductCreatd: () => undefined,
        },
      });
    expect(Object.keys(declare().handlers)).toEqual(['ProductCreatd']); // at runtime nothing checks it
  });
});
