import type { InputError } from './errors.js';
import type { FormField } from './product.js';

/** The closed set of validate codes (spec: POST /topup/validate). */
export const VALIDATE_CODES = [
  'invalid_user_id',
  'invalid_server',
  'account_ineligible',
  'limit_exceeded',
  'other',
] as const;

/**
 * The buyer's input against the product's form fields, before any supplier call:
 * required, pattern, max_length, options; unknown keys are refused too.
 */
export const checkFormFields = (fields: FormField[], values: Record<string, string>): InputError[] => {
  const errors: InputError[] = [];
  for (const f of fields) {
    const value = values[f.key];
    const input = `form_fields.${f.key}`;
    if (value === undefined || value === '') {
      if (f.required) errors.push({ input, message: `${f.label} is required` });
      continue;
    }
    if (f.max_length !== null && [...value].length > f.max_length)
      errors.push({ input, message: `at most ${f.max_length} characters` });
    if (f.pattern !== null && !new RegExp(f.pattern, 'u').test(value))
      errors.push({ input, message: `does not match ${f.pattern}` });
    if (f.type === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) errors.push({ input, message: 'must be a number' });
    if (f.type === 'select' && !(f.options ?? []).some((o) => o.value === value))
      errors.push({ input, message: `must be one of ${(f.options ?? []).map((o) => o.value).join(', ')}` });
  }
  for (const key of Object.keys(values))
    if (!fields.some((f) => f.key === key))
      errors.push({ input: `form_fields.${key}`, message: 'not a field of this product' });
  return errors;
};

/**
 * Sandbox fixed paths on `user_id` (spec: POST /sandbox/orders). 999999 and 888888 are
 * played by the service itself, so the supplier sees the consequences (a refused
 * checkout; a refund, -25 health and a cooldown) without a real failed top-up on its side.
 */
export type SandboxPath = 'clean' | 'invalid_user' | 'execute_fails' | 'first_execute_lost';

export const sandboxPath = (values: Record<string, string>): SandboxPath | null => {
  switch (values.user_id) {
    case '100001':
      return 'clean';
    case '999999':
      return 'invalid_user';
    case '888888':
      return 'execute_fails';
    case '777777':
      return 'first_execute_lost';
    default:
      return null;
  }
};
