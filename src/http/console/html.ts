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
  m ? `${(m.amount / 100).toFixed(2)} ${m.currency === 'EUR' ? '€' : m.currency}` : '—';

export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—');

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f5f6f8}
header{background:#1d2330;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center}
header a{color:#dfe6f3;text-decoration:none}header a.on{color:#fff;font-weight:600;border-bottom:2px solid #6ea8ff}
header .who{margin-left:auto;display:flex;gap:.6rem;align-items:center;font-size:.9rem}
main{max-width:1100px;margin:0 auto;padding:1rem}h1{font-size:1.35rem;margin:.4rem 0 1rem}h2{font-size:1.1rem;margin:1.4rem 0 .6rem}
.card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:1rem;margin-bottom:1rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e6e9ef;vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:#5b6475}
.pill{display:inline-block;padding:0 .5rem;border-radius:99px;font-size:.8rem;background:#e8ecf3}.ok{background:#d9f3e3;color:#17603a}.bad{background:#fde2e1;color:#8c1d18}.warn{background:#fff1cc;color:#7a5200}
form.inline{display:inline}button{font:inherit;padding:.35rem .8rem;border-radius:6px;border:1px solid #3563c9;background:#3f6fd8;color:#fff;cursor:pointer}button.plain{background:#fff;color:#3563c9}
input,select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #c4cad6;border-radius:6px;max-width:100%}textarea{width:100%;min-height:8rem;font-family:ui-monospace,monospace}
label{display:block;margin:.5rem 0 .2rem;font-weight:600;font-size:.9rem}.row{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}
.notice{background:#e3f0ff;border:1px solid #b6d3fb;padding:.6rem .8rem;border-radius:6px;margin-bottom:1rem}.error{background:#fde2e1;border-color:#f3b4b0}
.secret{font-family:ui-monospace,monospace;background:#fff8d6;padding:.5rem;border-radius:6px;word-break:break-all}
pre{white-space:pre-wrap;word-break:break-all;background:#f0f2f6;padding:.6rem;border-radius:6px;font-size:.85rem;max-height:20rem;overflow:auto}
.timeline{list-style:none;padding:0;margin:0;border-left:3px solid #c9d4ea}.timeline li{padding:.3rem 0 .5rem 1rem;position:relative}.timeline li:before{content:"";position:absolute;left:-8px;top:.65rem;width:13px;height:13px;border-radius:50%;background:#6ea8ff}
.stats{display:flex;flex-wrap:wrap;gap:1rem}.stat{flex:1 1 12rem}.stat b{display:block;font-size:1.5rem}
@media (max-width:640px){main{padding:.6rem}th,td{padding:.35rem .4rem;font-size:.9rem}header .who{margin-left:0}}
`;

const PAGES = [
  ['offers', 'Offers'],
  ['orders', 'Orders'],
  ['balance', 'Balance'],
  ['webhooks', 'Webhooks'],
] as const;

export const layout = (
  options: { title: string; active?: string; who?: { name: string; csrf: string }; notice?: string; error?: string },
  body: Html,
): string =>
  html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Supplier console</title><style>${new Html(STYLE)}</style></head>
<body><header><strong>Supplier console</strong>
${options.who ? PAGES.map(([path, label]) => html`<a href="/console/${path}" class="${options.active === path ? 'on' : ''}">${label}</a>`) : ''}
${options.who ? html`<span class="who"><span>${options.who.name}</span><form class="inline" method="post" action="/console/sign-out"><input type="hidden" name="_csrf" value="${options.who.csrf}"><button class="plain" type="submit">Sign out</button></form></span>` : ''}
</header><main>
${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''}
${options.error ? html`<div class="notice error" role="alert">${options.error}</div>` : ''}
${body}
</main></body></html>`.text;

export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

export const statusPill = (status: string) =>
  html`<span class="pill ${['active', 'completed', 'delivered', 'available', 'succeeded', 'ok'].includes(status) ? 'ok' : ['inactive', 'disabled', 'failed', 'expired', 'cancelled', 'refunded', 'invalidated', 'abandoned'].includes(status) ? 'bad' : 'warn'}">${status}</span>`;
