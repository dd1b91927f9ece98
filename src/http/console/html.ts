import { FORM_TOKEN_FIELD, newFormToken } from './form-token.js';
import { labelCells } from './stacked-tables.js';

/** HTML of the console: escaped by default, no script but the upload page's file reader. */

export const esc = (value: unknown): string =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Marks already-escaped HTML. */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

export const html = (strings: TemplateStringsArray, ...values: unknown[]): Html =>
  new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ''), ''));

const render = (value: unknown): string =>
  value instanceof Html
    ? value.text
    : Array.isArray(value)
      ? value.map(render).join('')
      : value === undefined || value === null || value === false
        ? ''
        : esc(value);

export const money = (m: { amount: number; currency: string } | null | undefined) =>
  // a no-break space: an amount never parts from its currency at a line's end
  m ? `${(m.amount / 100).toFixed(2)}\u00a0${m.currency === 'EUR' ? '€' : m.currency}` : '—';

/** A moment as the console writes it in text: `2026-01-05 10:00:00 UTC`. */
export const whenText = (iso: string | null | undefined) =>
  iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—';

/** A moment in a page: a `time` element, which the style keeps on one line (no break at a date's dashes). */
export const when = (iso: string | null | undefined) =>
  iso ? html`<time datetime="${iso}">${whenText(iso)}</time>` : '—';

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f5f6f8;overflow-wrap:break-word}
.skip{position:absolute;left:-999px;top:0;background:#fff;color:#1d2330;padding:.4rem .8rem}.skip:focus{left:0;z-index:2}
header{background:#1d2330;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center}
header nav{display:flex;flex-wrap:wrap;gap:.3rem 1rem}
header a{color:#dfe6f3;text-decoration:none}header a.on{color:#fff;font-weight:600;border-bottom:2px solid #6ea8ff}
header .who{margin-left:auto;display:flex;gap:.6rem;align-items:center;font-size:.9rem}
.banner{flex-basis:calc(100% + 2rem);/* the header's side padding taken back: edge to edge */order:-1;margin:-.6rem -1rem .2rem;padding:.35rem 1rem;background:#ffd54a;color:#1d2330;font-weight:600;text-align:center}
main{max-width:1100px;margin:0 auto;padding:1rem}h1{font-size:1.35rem;margin:.4rem 0 1rem}h2{font-size:1.1rem;margin:1.4rem 0 .6rem}
.card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:1rem;margin-bottom:1rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e6e9ef;vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:#4a5263}small{color:#4a5263}
a{color:#2450b0}
.pill{display:inline-block;padding:0 .5rem;border-radius:99px;font-size:.8rem;background:#e8ecf3;color:#1d2330}.ok{background:#d9f3e3;color:#17603a}.bad{background:#fde2e1;color:#8c1d18}.warn{background:#fff1cc;color:#6b4700}
form.inline{display:inline}button{font:inherit;padding:.35rem .8rem;border-radius:6px;border:1px solid #2450b0;background:#2f5bc4;color:#fff;cursor:pointer}button.plain{background:#fff;color:#2450b0}button.danger{background:#a3231d;border-color:#8c1d18}
a.button{display:inline-block;padding:.35rem .8rem;border-radius:6px;border:1px solid #8c1d18;background:#a3231d;color:#fff;text-decoration:none;line-height:1.45}
input,select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #767f90;border-radius:6px;max-width:100%}textarea{width:100%;min-height:8rem;font-family:ui-monospace,monospace}
label,legend{display:block;margin:.5rem 0 .2rem;font-weight:600;font-size:.9rem}fieldset{border:1px solid #dde1e8;border-radius:6px;margin:.5rem 0;padding:.2rem .8rem .6rem}
fieldset label{display:inline-flex;gap:.3rem;align-items:center;font-weight:400;margin:.2rem 1rem .2rem 0}
.field-error{color:#8c1d18;margin:.2rem 0 0;font-size:.9rem}[aria-invalid=true]{border-color:#a3231d;outline:1px solid #a3231d}
.hint{font-size:.85rem;color:#4a5263;margin:.1rem 0 0}
.row{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}.row>div{min-width:0}
.notice{background:#e3f0ff;border:1px solid #b6d3fb;padding:.6rem .8rem;border-radius:6px;margin-bottom:1rem}.error{background:#fde2e1;border-color:#f3b4b0}
.secret{font-family:ui-monospace,monospace;background:#fff8d6;padding:.5rem;border-radius:6px;word-break:break-all}
pre{white-space:pre-wrap;word-break:break-all;background:#f0f2f6;padding:.6rem;border-radius:6px;font-size:.85rem;max-height:20rem;overflow:auto}
.timeline{list-style:none;padding:0;margin:0;border-left:3px solid #c9d4ea}.timeline li{padding:.3rem 0 .5rem 1rem;position:relative}.timeline li:before{content:"";position:absolute;left:-8px;top:.65rem;width:13px;height:13px;border-radius:50%;background:#6ea8ff}
/* a list of links (the statements' months): each a target of 24 px at least (WCAG 2.2 target size) */
.links a{display:inline-block;min-height:24px;line-height:24px}
.stats{display:flex;flex-wrap:wrap;gap:1rem}.stat{flex:1 1 10rem}.stat b{display:block;font-size:1.5rem}
figure{margin:0}figcaption{display:flex;justify-content:space-between;flex-wrap:wrap;gap:.5rem;font-size:.9rem;color:#4a5263}
time{white-space:nowrap}td.n,th.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
/* a phone: the header in three short lines (the banner, the name with its sign-out, the pages
   in one line that scrolls inside itself), and tables as stacked rows of label and value */
@media (max-width:600px){main{padding:.6rem}
header{padding:.3rem .6rem;gap:.1rem .6rem}.banner{flex-basis:calc(100% + 1.2rem);margin:-.3rem -.6rem .1rem;padding:.15rem .6rem;font-size:.8rem}
header .who{font-size:.85rem}header .who>span{max-width:9rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
header nav{order:1;flex:1 1 100%;flex-wrap:nowrap;overflow-x:auto;gap:1rem}header nav a{white-space:nowrap;line-height:24px}
.scroll{overflow-x:visible}table,tbody,tr,td{display:block;width:100%}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
tr{border-bottom:2px solid #dde1e8;padding:.3rem 0}td{border:0;padding:.15rem .5rem .15rem 8rem;position:relative;min-height:1.6rem}
td.n{text-align:left}td code{font-size:.8rem}td:not([data-label]){padding-left:.5rem}
td[data-label]::before{content:attr(data-label);position:absolute;left:.5rem;width:7rem;font-size:.75rem;text-transform:uppercase;letter-spacing:.03em;color:#4a5263;font-weight:600;line-height:1.45rem;overflow-wrap:break-word}}
`;

const PAGES = [
  ['offers', 'Offers'],
  ['orders', 'Orders'],
  ['competition', 'Competition'],
  ['balance', 'Balance'],
  ['payouts', 'Payouts'],
  ['statements', 'Statements'],
  ['webhooks', 'Webhooks'],
] as const;

export interface LayoutOptions {
  title: string;
  active?: string;
  who?: { name: string; csrf: string };
  notice?: string;
  error?: string;
  /** The sandbox: a test-mode banner on every page. */
  sandbox?: boolean;
}

const nav = (o: LayoutOptions) =>
  o.who
    ? html`<nav aria-label="Console">${PAGES.map(([path, label]) => html`<a href="/console/${path}" class="${o.active === path ? 'on' : ''}"${o.active === path ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
<span class="who"><span>${o.who.name}</span><form class="inline" method="post" action="/console/sign-out">${csrfField(o.who.csrf)}<button class="plain" type="submit">Sign out</button></form></span>`
    : '';

export const layout = (options: LayoutOptions, body: Html): string =>
  labelCells(
    html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Supplier console</title><style>${new Html(STYLE)}</style></head>
<body><a class="skip" href="#main">Skip to content</a><header>
${options.sandbox ? html`<p class="banner" id="test-mode">Test mode: sandbox data, no real money moves.</p>` : ''}<strong>Supplier console</strong>
${nav(options)}
</header><main id="main" tabindex="-1">
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
${body}
</main></body></html>`.text,
  );

/**
 * The hidden fields of every form that posts: the session's CSRF token, and a token of this
 * rendering of the form that its writes use as their Idempotency-Key (form-token.ts).
 */
export const csrfField = (csrf: string) =>
  html`<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="${FORM_TOKEN_FIELD}" value="${newFormToken()}">`;

export const statusPill = (status: string) =>
  html`<span class="pill ${['active', 'completed', 'delivered', 'available', 'succeeded', 'ok', 'paid', 'eligible', 'selected'].includes(status) ? 'ok' : ['inactive', 'disabled', 'failed', 'expired', 'cancelled', 'refunded', 'invalidated', 'abandoned', 'not eligible'].includes(status) ? 'bad' : 'warn'}">${status}</span>`;
