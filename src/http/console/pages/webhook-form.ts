import { SUBSCRIBABLE_EVENT_TYPES } from '../../../domain/webhook-endpoint.js';
import { all, type Form, one } from '../core.js';
import type { FieldName } from '../errors.js';
import { checkboxes, field, type FormState, whole } from '../forms.js';
import { type Html, html } from '../html.js';

export const WEBHOOK_FIELDS: Record<string, FieldName> = {
  url: { name: 'url', label: 'URL' },
  events: { name: 'events', label: 'Events' },
  description: { name: 'description', label: 'Description' },
  rate_limit: { name: 'rate_limit', label: 'Rate limit' },
};

/** An endpoint's settings as the API takes them; an empty rate limit is no limit. */
export const endpointOf = (form: Form) => {
  const rate = one(form, 'rate_limit');
  return {
    url: one(form, 'url'),
    events: all(form, 'events'),
    description: one(form, 'description'),
    rate_limit: rate === '' ? null : (whole(rate) ?? null),
  };
};

/**
 * Beside a URL refused for being local (http, a private or loopback address): how to receive
 * events on this machine after all.
 */
const localHint = (state: FormState): Html => {
  const refused = state.refusal?.fields.url ?? '';
  if (!/https|private|loopback|link-local|unspecified|address/i.test(refused)) return html``;
  return html`<p class="hint" id="url-local">To receive events on your own machine, run <code>npm run cli -- listen --base-url ORIGIN --forward-to http://127.0.0.1:4242/webhooks</code> (no endpoint needed), or run a local sandbox with <code>SVC_ALLOW_PRIVATE_TARGETS=1</code>: see <a href="/docs/webhooks.md#testing-webhooks-on-your-machine">Testing webhooks on your machine</a>.</p>`;
};

/** The endpoint's fields: URL, the events (every one, or "*"), description and per-endpoint rate limit. */
export const endpointFields = (state: FormState, hook?: any): Html =>
  html`${field({ name: 'url', label: 'URL', type: 'url', value: hook?.url, hint: 'https://, where your service receives the events', required: true, state })}${localHint(state)}
${checkboxes({ name: 'events', legend: 'Events', options: ['*', ...SUBSCRIBABLE_EVENT_TYPES], checked: hook?.events ?? [], state })}
<div class="row">${field({ name: 'description', label: 'Description', value: hook?.description, state })}
${field({ name: 'rate_limit', label: 'Rate limit', type: 'number', value: hook?.rate_limit, hint: 'Deliveries per second; empty for no limit', attrs: html` min="1" max="1000"`, state })}</div>`;
