import { describe, it } from 'vitest';
import { type FormField, type ProductEvent, type ProductFields, productDecider } from '../../src/domain/product.js';
import { givenFor } from '../support/given.js';

const given = givenFor(productDecider);
const now = '2026-01-05T10:00:00.000Z';
const game: ProductFields = {
  name: 'Starfall',
  type: 'game_key',
  platform: 'steam',
  region: 'EU',
  status: 'sellable',
  formFields: [],
  keyFormat: null,
};
const created: ProductEvent = { type: 'ProductCreated', data: { ...game, productId: 'p1', at: now } };
const userId: FormField = {
  key: 'user_id',
  label: 'Player ID',
  type: 'text',
  required: true,
  pattern: '^[0-9]{6}$',
  max_length: 6,
  help_text: null,
  options: null,
};

describe('Product', () => {
  it('is created once', () => {
    given()
      .when({ type: 'CreateProduct', data: { ...game, productId: 'p1', now } })
      .then([created]);
    given(created)
      .when({ type: 'CreateProduct', data: { ...game, productId: 'p1', now } })
      .thenThrows('product_exists');
  });

  it('records only the fields that change', () => {
    given(created)
      .when({ type: 'UpdateProduct', data: { changes: { status: 'not_sellable', name: 'Starfall' }, now } })
      .then([{ type: 'ProductUpdated', data: { productId: 'p1', changes: { status: 'not_sellable' }, at: now } }]);
    given(created)
      .when({ type: 'UpdateProduct', data: { changes: { name: 'Starfall' }, now } })
      .then([]);
    given()
      .when({ type: 'UpdateProduct', data: { changes: { name: 'x' }, now } })
      .thenThrows('not_found');
  });

  it('gives form fields to top-up products only, with unique keys and options for selects', () => {
    given()
      .when({ type: 'CreateProduct', data: { ...game, formFields: [userId], productId: 'p2', now } })
      .thenRefuses([{ input: 'form_fields', message: 'only top-up products have form fields' }]);
    given()
      .when({
        type: 'CreateProduct',
        data: { ...game, type: 'topup', formFields: [userId, userId], productId: 'p2', now },
      })
      .thenRefuses([{ input: 'form_fields.1.key', message: 'duplicate key' }]);
    given()
      .when({
        type: 'CreateProduct',
        data: {
          ...game,
          type: 'topup',
          formFields: [{ ...userId, key: 'server', type: 'select', options: [] }],
          productId: 'p2',
          now,
        },
      })
      .thenRefuses([{ input: 'form_fields.0.options', message: 'a select field needs at least one option' }]);
    given(created)
      .when({ type: 'UpdateProduct', data: { changes: { formFields: [userId] }, now } })
      .thenThrows('validation_failed');
  });
});
