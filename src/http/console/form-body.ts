import parseQueryString from 'fast-querystring';
import { unstorableReason } from '../input-safety.js';

/** A posted form: a field sent more than once (the event checkboxes) is a list. */
export type Form = Record<string, string | string[] | undefined>;

/**
 * What one console form may send. Every route's body limit bounds the bytes; these bound
 * the work a body of that size can cause: a name-value pair costs a few objects, so a
 * megabyte of `a&` would otherwise be half a million of them.
 */
export const FORM_LIMITS = {
  /** Name-value pairs in one form: the largest form (a selection of stock items) sends fewer. */
  fields: 2_000,
  /** Values under one name (checkboxes, a selection). */
  repeats: 1_000,
  /** The sign-in form holds a token and the CSRF field: a few hundred bytes. */
  signInBytes: 4 * 1024,
  /** Any other form but the key upload. */
  formBytes: 256 * 1024,
} as const;

/**
 * A form the console refuses to read, before any page's code sees it: a 4xx console page
 * in words (`statusCode` is how fastify and the console's fault page read an error's status).
 */
export class FormRefused extends Error {
  constructor(
    readonly statusCode: number,
    readonly words: string,
  ) {
    super(words);
  }
}

/**
 * Names no console field has, and which name an object's prototype machinery: a form or a
 * query that sends one is probing, and is refused whole rather than read around.
 */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Refuses a form's or a query's field names that no console page has (see PROTOTYPE_NAMES). */
export const checkNames = (names: Iterable<string>): void => {
  for (const name of names)
    if (PROTOTYPE_NAMES.has(name)) throw new FormRefused(400, `No form of this console has a field named "${name}".`);
};

/** Whether the text holds more name-value pairs than a form may send; stops counting past the limit. */
const tooManyPairs = (text: string): boolean => {
  let pairs = text.length > 0 ? 1 : 0;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1))
    if (++pairs > FORM_LIMITS.fields) return true;
  return false;
};

/**
 * Reads an `application/x-www-form-urlencoded` body with fast-querystring (the parser
 * fastify reads query strings with): one pass over the text, repeated names gathered by
 * appending, into an object without a prototype, so `__proto__` or `constructor` is a field
 * like any other and never reaches Object.prototype. The pairs are counted first, so a body
 * of many empty pairs is refused before anything is built; a NUL or a lone surrogate (which
 * no page's field can hold, and Postgres cannot store) refuses the whole form.
 */
export const readForm = (text: string): Form => {
  if (tooManyPairs(text))
    throw new FormRefused(413, `This form sends more than ${FORM_LIMITS.fields.toLocaleString('en')} fields.`);
  const parsed = parseQueryString.parse(text) as Record<string, string | string[]>;
  const form: Form = Object.create(null) as Form;
  checkNames(Object.keys(parsed));
  for (const name of Object.keys(parsed)) {
    const value = parsed[name];
    const values = Array.isArray(value) ? value : [value];
    if (values.length > FORM_LIMITS.repeats)
      throw new FormRefused(
        413,
        `This form sends one field more than ${FORM_LIMITS.repeats.toLocaleString('en')} times.`,
      );
    for (const text of [name, ...values]) {
      const reason = text === undefined ? undefined : unstorableReason(text);
      if (reason)
        throw new FormRefused(400, `A field of this form holds a character no field can hold (it ${reason}).`);
    }
    form[name] = value;
  }
  return form;
};
