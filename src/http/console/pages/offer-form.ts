import { type Form, one } from '../core.js';
import type { FieldName } from '../errors.js';
import { cents, eurosText, field, type FormState, whole } from '../forms.js';
import { type Html, html } from '../html.js';

/** The offer's fields as the API names them, and the form fields that send them. */
export const OFFER_FIELDS: Record<string, FieldName> = {
  product_id: { name: 'product_id', label: 'Product' },
  stock_mode: { name: 'kind', label: 'Stock' },
  price: { name: 'price', label: 'Price', money: true },
  external_ref: { name: 'external_ref', label: 'External ref' },
  low_stock_threshold: { name: 'low_stock_threshold', label: 'Low-stock threshold' },
  declared_stock: { name: 'declared_stock', label: 'Declared stock' },
  fulfilment: { name: 'base_url', label: 'Fulfilment URL' },
  delivery_sla_minutes: { name: 'delivery_sla_minutes', label: 'Delivery within (minutes)' },
  delivery_time: { name: 'delivery_time', label: 'Delivery time' },
};

/** The price a form sent, in cents; a typo is sent as it is not an amount, and refused by the console. */
export const priceOf = (form: Form) => cents(one(form, 'price'));

/** The terms a form sets, as the API takes them; what is left empty is not sent. */
export const termsOf = (form: Form, declared: boolean) => {
  const opt = (name: string) => one(form, name) || undefined;
  const num = (name: string) => whole(one(form, name));
  return {
    price: { amount: priceOf(form), currency: 'EUR' },
    external_ref: one(form, 'external_ref'),
    ...(opt('low_stock_threshold') && { low_stock_threshold: num('low_stock_threshold') }),
    ...(declared && {
      ...(opt('base_url') && { fulfilment: { base_url: one(form, 'base_url') } }),
      ...(opt('delivery_sla_minutes') && { delivery_sla_minutes: num('delivery_sla_minutes') }),
      ...(opt('delivery_time') && { delivery_time: opt('delivery_time') }),
    }),
  };
};

/** The terms' fields: price and external ref, the threshold, and a declared offer's delivery terms. */
export const termsFields = (
  state: FormState,
  offer: any,
  declared: boolean | undefined,
  priceHint = 'In euros, like 19.99',
): Html =>
  html`<div class="row">${field({ name: 'price', label: 'Price', value: eurosText(offer?.price), hint: priceHint, required: true, attrs: html` inputmode="decimal"`, state })}
${field({ name: 'external_ref', label: 'External ref', value: offer?.external_ref, hint: 'Your own reference for this offer', required: true, state })}
${field({ name: 'low_stock_threshold', label: 'Low-stock threshold', value: offer?.low_stock_threshold, type: 'number', attrs: html` min="0"`, state })}</div>
${
  declared === false
    ? ''
    : html`<div class="row">${field({ name: 'base_url', label: 'Fulfilment URL', value: offer?.fulfilment?.base_url, type: 'url', hint: declared === undefined ? 'Declared stock and top-ups: your fulfilment API' : undefined, state })}
${field({ name: 'delivery_sla_minutes', label: 'Delivery within (minutes)', value: offer?.delivery_sla_minutes, type: 'number', attrs: html` min="1"`, state })}
${field({ name: 'delivery_time', label: 'Delivery time', value: offer?.delivery_time, hint: 'As buyers read it, like "instant"', state })}</div>`
}`;
