import type { Form } from '../core.js';
import { one } from '../core.js';
import { type FieldName, type Refusal, refusalOf } from '../errors.js';
import { cents, eurosText, field, type FormState, select } from '../forms.js';
import { csrfField, type Html, html, money } from '../html.js';
import type { Answer } from '../core.js';
import type { ConsoleSession } from '../session.js';

const UNITS = [
  ['amount', 'EUR below'],
  ['percent', '% below'],
] as const;

const WHEN_ALONE = [
  ['keep', 'Keep my price'],
  ['ceiling', 'Go up to the ceiling'],
] as const;

/** The rule's fields by their names in the API's body, with the labels the page shows. */
const FIELDS: Record<string, FieldName> = {
  beat_by: { name: 'beat_by', label: 'Beat the lowest competitor by', money: true },
  floor: { name: 'floor', label: 'Floor', money: true },
  ceiling: { name: 'ceiling', label: 'Ceiling', money: true },
  max_changes_per_hour: { name: 'max_changes_per_hour', label: 'Changes per hour at most' },
  when_alone: { name: 'when_alone', label: 'With no competitor' },
};

/** The same fields inside a preview's body (`POST /pricing/simulate`'s `pricing_rule`). */
const PREVIEW_FIELDS = Object.fromEntries(Object.entries(FIELDS).map(([k, v]) => [`pricing_rule.${k}`, v]));

/** The form's field names, in the order a query string carries them for a preview. */
export const RULE_FIELD_NAMES = ['beat_by', 'beat_unit', 'floor', 'ceiling', 'max_changes_per_hour', 'when_alone'];

/**
 * The rule as the API takes it; a value that is not a number is sent as null, which the API
 * refuses by field, together with every other field it refuses.
 */
export const ruleOf = (form: Form) => {
  const amount = (name: string) => {
    const v = cents(one(form, name));
    return Number.isNaN(v) ? null : v;
  };
  const beat = one(form, 'beat_by').replace(',', '.');
  const percent = /^\d{1,2}(\.\d{1,2})?$/.test(beat) ? Number(beat) : null;
  const max = one(form, 'max_changes_per_hour');
  return {
    beat_by: one(form, 'beat_unit') === 'percent' ? { percent } : { amount: amount('beat_by') },
    floor: { amount: amount('floor'), currency: 'EUR' },
    ceiling: { amount: amount('ceiling'), currency: 'EUR' },
    max_changes_per_hour: /^\d{1,3}$/.test(max) ? Number(max) : null,
    when_alone: one(form, 'when_alone') || 'keep',
  };
};

/**
 * A refusal of the rule in the page's words. The margin is an amount or a percentage (one
 * of two shapes in the API): whatever the API found wrong with it, the sentence says what
 * the chosen unit takes.
 */
export const ruleRefusal = (answer: Answer, form: Form, preview = false): Refusal => {
  const refusal = refusalOf(answer, preview ? PREVIEW_FIELDS : FIELDS);
  if (refusal.fields.beat_by !== undefined)
    refusal.fields.beat_by =
      one(form, 'beat_unit') === 'percent'
        ? 'Beat the lowest competitor by must be a percentage from 0.01 to 50, like 1.5.'
        : 'Beat the lowest competitor by must be an amount in euros of at least 0.01, like 0.10.';
  return refusal;
};

/** The form's values from a saved rule, as a person would type them. */
const valuesOf = (rule: any): Record<string, string> => {
  const beat = rule?.beat_by;
  return {
    beat_by: beat ? (beat.percent !== undefined ? String(beat.percent) : eurosText(beat)) : '',
    beat_unit: beat?.percent !== undefined ? 'percent' : 'amount',
    floor: eurosText(rule?.floor),
    ceiling: eurosText(rule?.ceiling),
    max_changes_per_hour: String(rule?.max_changes_per_hour ?? 6),
    when_alone: rule?.when_alone ?? 'keep',
  };
};

/**
 * The rule's form: every bound said beside its field before it bites, a preview that saves
 * nothing, and the save. Values come from the refused or previewed form first, then the rule.
 */
export const ruleForm = (s: ConsoleSession, id: string, rule: any, state: FormState): Html => {
  const v = valuesOf(rule);
  return html`<form method="post" action="/console/offers/${id}/pricing/save">${csrfField(s.csrf)}<div class="row">
${field({ name: 'beat_by', label: 'Beat the lowest competitor by', value: v.beat_by, hint: 'At least 0.01 EUR, or 0.01 to 50 %', attrs: html` inputmode="decimal"`, state })}${select({ name: 'beat_unit', label: 'Unit', value: v.beat_unit, options: UNITS, state })}
${field({ name: 'floor', label: 'Floor', value: v.floor, hint: 'Never below this, in euros', attrs: html` inputmode="decimal"`, state })}${field({ name: 'ceiling', label: 'Ceiling', value: v.ceiling, hint: 'Never above this, in euros; not below the floor', attrs: html` inputmode="decimal"`, state })}
${field({ name: 'max_changes_per_hour', label: 'Changes per hour at most', value: v.max_changes_per_hour, type: 'number', hint: '1 to 60', attrs: html` min="1" max="60"`, state })}${select({ name: 'when_alone', label: 'With no competitor', value: v.when_alone, options: WHEN_ALONE, hint: 'Keeping leaves your price where it is (within floor and ceiling)', state })}</div>
<p class="row"><button type="submit" name="intent" value="preview" class="plain">Preview rule</button><button type="submit" name="intent" value="save">Save pricing rule</button></p></form>`;
};

const WHY: Record<string, (r: any) => string> = {
  beats_lowest: (r) => `it beats the lowest competing price, ${money(r.lowest_competing_price)}, by your margin`,
  held_by_floor: (r) =>
    `beating the lowest competing price, ${money(r.lowest_competing_price)}, would go below your floor`,
  held_by_ceiling: (r) => `the lowest competing price, ${money(r.lowest_competing_price)}, is above your ceiling`,
  alone_keeps: () => 'no other supplier is routable now, and the rule keeps your price (within floor and ceiling)',
  alone_ceiling: () => 'no other supplier is routable now, and the rule goes up to its ceiling',
};

/** What a previewed rule would do now, in one paragraph. */
export const previewText = (r: any): Html => {
  const p = r.pricing_rule;
  const what = p.changes
    ? `Saved now, this rule would change your price from ${money(p.from_price)} to ${money(p.price)}`
    : `Saved now, this rule would keep your price at ${money(p.price)}`;
  return html`<div class="notice" role="status" id="preview">${what}: ${WHY[p.outcome]?.(r) ?? p.outcome}. At that price you would rank ${r.rank}${r.would_be_selected ? ' (selected)' : ''} and get ${money(r.net)} after ${money(r.commission)} commission. Nothing is saved yet.</div>`;
};

/** The saved rule in a sentence: its margin, bounds, what it does alone, and what a price by hand meets. */
export const ruleSummary = (rule: any): Html => {
  const beat = rule.beat_by.percent !== undefined ? `${rule.beat_by.percent} %` : money(rule.beat_by);
  const alone = rule.when_alone === 'ceiling' ? 'goes up to the ceiling' : 'keeps your price';
  return html`<p id="rule">On: beats the lowest competitor by ${beat}, never below ${money(rule.floor)} nor above ${money(rule.ceiling)}, at most ${rule.max_changes_per_hour} changes an hour (${rule.changes_in_last_hour} in the last hour). With no competitor it ${alone}. While it is on, a price you set by hand is refused: remove the rule first.</p>`;
};
