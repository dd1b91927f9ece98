import { type Html, html } from './html.js';
import type { Refusal } from './errors.js';

/** What a form shows again after a refusal: the values sent and the refusal's words. */
export interface FormState {
  values?: Record<string, string | string[] | undefined>;
  refusal?: Refusal;
}

interface FieldOptions {
  name: string;
  label: string;
  /** Ids are unique on the page: forms sharing a page prefix theirs. */
  id?: string;
  value?: string | number | null;
  type?: string;
  hint?: string;
  required?: boolean;
  attrs?: Html;
  state?: FormState;
}

const valueOf = (o: FieldOptions) => {
  const sent = o.state?.values?.[o.name];
  return sent !== undefined ? String(Array.isArray(sent) ? sent[0] : sent) : (o.value ?? '');
};

/** The error and hint of a field, tied to it by aria-describedby. */
const described = (id: string, error?: string, hint?: string) => ({
  ids: [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' '),
  below: html`${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}`,
});

const aria = (error: string | undefined, ids: string) =>
  html`${error ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`;

export const field = (o: FieldOptions): Html => {
  const id = o.id ?? o.name;
  const error = o.state?.refusal?.fields[o.name];
  const d = described(id, error, o.hint);
  return html`<div><label for="${id}">${o.label}</label><input id="${id}" name="${o.name}" type="${o.type ?? 'text'}" value="${valueOf(o)}"${o.required ? html` required` : ''}${aria(error, d.ids)}${o.attrs ?? ''}>${d.below}</div>`;
};

export const select = (o: FieldOptions & { options: readonly (readonly [string, string])[] }): Html => {
  const id = o.id ?? o.name;
  const error = o.state?.refusal?.fields[o.name];
  const d = described(id, error, o.hint);
  const chosen = String(valueOf(o));
  return html`<div><label for="${id}">${o.label}</label><select id="${id}" name="${o.name}"${aria(error, d.ids)}>${o.options.map(([v, text]) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${text}</option>`)}</select>${d.below}</div>`;
};

export const textarea = (o: FieldOptions): Html => {
  const id = o.id ?? o.name;
  const error = o.state?.refusal?.fields[o.name];
  const d = described(id, error, o.hint);
  return html`<div><label for="${id}">${o.label}</label><textarea id="${id}" name="${o.name}"${aria(error, d.ids)}>${valueOf(o)}</textarea>${d.below}</div>`;
};

/** A group of checkboxes, one per choice, under one legend. */
export const checkboxes = (o: {
  name: string;
  legend: string;
  id?: string;
  options: readonly string[];
  checked: readonly string[];
  state?: FormState;
}): Html => {
  const id = o.id ?? o.name;
  const sent = o.state?.values?.[o.name];
  const checked = sent === undefined ? o.checked : Array.isArray(sent) ? sent : [sent];
  const error = o.state?.refusal?.fields[o.name];
  return html`<fieldset${error ? html` aria-describedby="${id}-error"` : ''}><legend>${o.legend}</legend>${o.options.map((v, i) => html`<label><input type="checkbox" id="${id}-${i}" name="${o.name}" value="${v}"${checked.includes(v) ? html` checked` : ''}>${v}</label>`)}${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</fieldset>`;
};

/** Euros as a person types them ("19.99", "19,99", "19") in cents; NaN when it is not an amount. */
export const cents = (text: string): number => {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : Number.NaN;
};

export const eurosText = (m: { amount: number } | null | undefined) => (m ? (m.amount / 100).toFixed(2) : '');

/** A whole number as typed, or NaN; '' is undefined (not sent). */
export const whole = (text: string): number | undefined =>
  text === '' ? undefined : /^-?\d{1,9}$/.test(text) ? Number(text) : Number.NaN;

/**
 * A day as the date input sends it (YYYY-MM-DD), a real calendar day, as the instant it
 * starts in UTC; undefined when it is not one.
 */
export const dayStart = (text: string): Date | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const at = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text ? undefined : at;
};

/** The instant a day ends: the next day's start (the API's `to` is exclusive, so the day is included). */
export const dayEnd = (text: string): Date | undefined => {
  const start = dayStart(text);
  return start && new Date(start.getTime() + 86_400_000);
};
