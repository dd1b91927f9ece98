import type { Decider } from './decider.js';
import { changedFields } from './changes.js';
import { assertNever, DomainError, invalidInput } from './errors.js';

export type ProductType = 'game_key' | 'topup';
export type ProductStatus = 'sellable' | 'not_sellable';

export interface FormField {
  key: string;
  label: string;
  type: 'text' | 'number' | 'select';
  required: boolean;
  pattern: string | null;
  max_length: number | null;
  help_text: string | null;
  options: { value: string; label: string }[] | null;
}

/**
 * The shape of a product's keys, set by the operator: a key must match `pattern` whole and
 * have `minLength` to `maxLength` characters. `description` says it in words, as a refused
 * line names it ("5 groups of 5 letters or digits, joined by dashes").
 */
export interface KeyFormat {
  pattern: string;
  minLength: number;
  maxLength: number;
  description: string;
}

export interface ProductFields {
  name: string;
  type: ProductType;
  platform: string;
  region: string;
  status: ProductStatus;
  formFields: FormField[];
  /** null: any key of 1 to 1,024 characters. */
  keyFormat: KeyFormat | null;
}

export type ProductEvent =
  | { type: 'ProductCreated'; data: ProductFields & { productId: string; at: string } }
  | { type: 'ProductUpdated'; data: { productId: string; changes: Partial<ProductFields>; at: string } };

export type ProductCommand =
  | { type: 'CreateProduct'; data: ProductFields & { productId: string; now: string } }
  | { type: 'UpdateProduct'; data: { changes: Partial<ProductFields>; now: string } };

export type ProductState = (ProductFields & { id: string }) | null;

export const productDecider: Decider<ProductState, ProductCommand, ProductEvent> = {
  initialState: null,

  evolve(state, event) {
    switch (event.type) {
      case 'ProductCreated': {
        const { productId, at: _at, ...fields } = event.data;
        return { id: productId, ...fields };
      }
      case 'ProductUpdated':
        return state && { ...state, ...event.data.changes };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateProduct': {
        if (state) throw new DomainError('product_exists', `product ${state.id} already exists`);
        const { now, ...fields } = command.data;
        checkFormFields(fields.type, fields.formFields);
        checkKeyFormat(fields.keyFormat);
        return [{ type: 'ProductCreated', data: { ...fields, at: now } }];
      }
      case 'UpdateProduct': {
        if (!state) throw new DomainError('not_found', 'product not found');
        const changes = changedFields<ProductFields>(command.data.changes, state);
        if (Object.keys(changes).length === 0) return [];
        const next = { ...state, ...changes };
        checkFormFields(next.type, next.formFields);
        checkKeyFormat(next.keyFormat);
        return [{ type: 'ProductUpdated', data: { productId: state.id, changes, at: command.data.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};

/** The key format as one check, compiled once: a key's refusal in words, or undefined when it fits. */
export const keyFormatCheck = (format: KeyFormat | null): ((value: string) => string | undefined) => {
  if (!format) return () => undefined;
  const whole = new RegExp(`^(?:${format.pattern})$`, 'u');
  const refused = `does not match the product's key format: ${format.description}`;
  return (value) => {
    const length = [...value].length;
    // the length first: the pattern only ever runs on a key of the format's length
    return length < format.minLength || length > format.maxLength || !whole.test(value) ? refused : undefined;
  };
};

/** Form fields describe what a top-up buyer types; a game key has none to ask for. */
const checkFormFields = (type: ProductType, fields: FormField[]): void => {
  if (type !== 'topup' && fields.length > 0)
    throw invalidInput(
      [{ input: 'form_fields', message: 'only top-up products have form fields' }],
      'form_fields are for top-up products only',
    );
  const keys = new Set<string>();
  fields.forEach((f, i) => {
    if (keys.has(f.key))
      throw invalidInput(
        [{ input: `form_fields.${i}.key`, message: 'duplicate key' }],
        `form field key ${f.key} appears twice`,
      );
    keys.add(f.key);
    if (f.type === 'select' && (!f.options || f.options.length === 0))
      throw invalidInput(
        [{ input: `form_fields.${i}.options`, message: 'a select field needs at least one option' }],
        `select field ${f.key} needs options`,
      );
  });
};

const checkKeyFormat = (format: KeyFormat | null): void => {
  if (format && format.minLength > format.maxLength)
    throw invalidInput(
      [{ input: 'key_format.min_length', message: 'min_length is above max_length' }],
      "the key format's length range is empty",
    );
};
