import type { Answer } from './core.js';

/**
 * What an API refusal means to a person. A validation problem names each field it refused
 * by its path in the request (`body.price.amount`) in the schema's wording; the console shows
 * it beside the form field it came from, in words, and says nothing twice. Every other
 * problem becomes one sentence for the page's alert.
 */
export interface Refusal {
  /** The page's alert: a sentence, or a pointer to the fields when they carry it all. */
  message: string;
  /** Form field name → its sentence. */
  fields: Record<string, string>;
}

/** A form field of the request: its form name, its label, and whether it is an amount in minor units. */
export interface FieldName {
  name: string;
  label: string;
  money?: boolean;
}

const euros = (minor: number) => `${(minor / 100).toFixed(2)} EUR`;

/** The schema's wording (zod's), said in words, after the field's label. */
export const inWords = (message: string, money = false): string => {
  const n = (text: string) => (money ? euros(Number(text)) : text);
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/too small: expected string to have >=1 characters/i, () => 'is required'],
    [/too small: expected string to have >=(\d+)/i, (m) => `must have at least ${m[1]} characters`],
    [/too big: expected string to have <=(\d+)/i, (m) => `must have at most ${m[1]} characters`],
    [/too small: expected (?:number|int) to be >=?(-?[\d.]+)/i, (m) => `must be at least ${n(m[1]!)}`],
    [/too big: expected (?:number|int) to be <=?(-?[\d.]+)/i, (m) => `must be at most ${n(m[1]!)}`],
    [/too small: expected array to have >=(\d+)/i, (m) => `needs at least ${m[1]} choice${m[1] === '1' ? '' : 's'}`],
    [/too big: expected array to have <=(\d+)/i, (m) => `allows at most ${m[1]} choices`],
    [/invalid iso datetime|invalid datetime/i, () => 'must be a date and time'],
    [
      /expected int|expected number|not a number/i,
      () => (money ? 'must be an amount in euros, like 9.50' : 'must be a whole number'),
    ],
    [/received undefined|required/i, () => 'is required'],
    [/invalid option|expected one of|invalid enum/i, () => 'is not one of the choices'],
    [/invalid string: must match pattern/i, () => 'is not in the expected form'],
  ];
  for (const [re, say] of rules) {
    const m = message.match(re);
    if (m) return say(m);
  }
  // a domain rule's own words (e.g. "floor above ceiling"): already a phrase
  return message.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/\.$/, '');
};

const BY_CODE: Record<string, string> = {
  offer_exists: 'You already have an offer for this product.',
  product_not_sellable: 'This product is not on sale.',
  rate_limited: 'Too many requests for now: wait a minute and try again.',
  pricing_rule_active:
    'Price is set by your pricing rule: remove the rule, or change its floor and ceiling, to set the price by hand.',
  idempotency_key_in_use: 'The same change is already under way: reload the page in a moment.',
  payload_too_large: 'That is more than one form can send: send it in parts.',
  service_unavailable: 'The service is briefly unavailable: try again in a moment.',
  internal_error: 'Something went wrong on our side: try again, and tell us if it keeps happening.',
};

/** Problems that are about one field of the form that sent it. */
const FIELD_OF_CODE: Record<string, string> = { pricing_rule_active: 'price' };

const sentence = (text: string) => {
  const t = text.trim().replace(/^[a-z]/, (c) => c.toUpperCase());
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/** The path of a refused field without the request part it came in (`body.price.amount` → `price.amount`). */
const pathOf = (field: string) => field.replace(/^(body|querystring|params|query)\.?/, '');

/** The field a path belongs to: the longest known path it starts with. */
const owner = (path: string, names: Record<string, FieldName>): FieldName | undefined => {
  const known = Object.keys(names)
    .filter((k) => path === k || path.startsWith(`${k}.`))
    .sort((a, b) => b.length - a.length)[0];
  return known === undefined ? undefined : names[known];
};

/** Words for the field of a path the form does not show: `low_stock_threshold` → "Low stock threshold". */
const spoken = (path: string) => sentence(path.replace(/\.\d+$/, '').replace(/[._]/g, ' ')).replace(/\.$/, '');

export const refusalOf = (answer: Answer, names: Record<string, FieldName> = {}): Refusal => {
  const problem = answer.body ?? {};
  const errors: { field: string; message: string }[] = Array.isArray(problem.errors) ? problem.errors : [];
  const fields: Record<string, string> = {};
  const loose: string[] = [];
  for (const e of errors) {
    const path = pathOf(String(e.field ?? ''));
    const f = owner(path, names);
    const said = `${f?.label ?? spoken(path)} ${inWords(String(e.message ?? ''), f?.money ?? /amount$/.test(path))}.`;
    if (f) fields[f.name] ??= said;
    else if (!loose.includes(said)) loose.push(said);
  }
  if (errors.length > 0 || problem.code === 'validation_failed')
    return {
      fields,
      message: loose.length
        ? loose.join(' ')
        : Object.keys(fields).length
          ? 'Check the fields marked below.'
          : sentence(String(problem.detail ?? 'That was refused')),
    };
  const message = byCode(problem) ?? sentence(String(problem.detail ?? problem.title ?? `Refused (${answer.status})`));
  // a refusal about one field's value is said beside that field too, when the form has it
  const field = FIELD_OF_CODE[problem.code];
  if (field !== undefined && names[field])
    return { fields: { [names[field].name]: message }, message: 'Check the fields marked below.' };
  return { fields, message };
};

/** The sentence of a problem whose code says it all; amounts in euros, not minor units. */
const byCode = (problem: any): string | undefined => {
  if (problem.code === 'payout_below_minimum') {
    const minimum = problem.minimum?.amount ?? Number(/(\d+) minor units/.exec(String(problem.detail))?.[1]);
    return `A payout is at least ${euros(minimum)}.`;
  }
  if (problem.code === 'insufficient_available_balance') return 'Your available balance is lower than that amount.';
  return BY_CODE[problem.code];
};

/** A refusal of the console's own (a form value it could not read), shaped like the API's. */
export const fieldRefusal = (name: string, message: string): Refusal => ({
  message: 'Check the fields marked below.',
  fields: { [name]: message },
});
