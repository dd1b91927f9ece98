import { type Html, html, money } from './html.js';

/**
 * The running balance (both accounts) after each entry, as an inline SVG line: no script,
 * no library. Its words (the dates and the total) are HTML under it, so they keep their
 * size on a phone where the drawing shrinks.
 */
export const balanceChart = (entries: any[]): Html => {
  if (entries.length === 0) return html`<p>No entries in this period.</p>`;
  const sorted = [...entries].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  let total = 0;
  const points = sorted.map((e) => ({ t: Date.parse(e.created_at), v: (total += e.amount.amount) }));
  const [t0, t1] = [points[0]!.t, points.at(-1)!.t];
  const max = Math.max(1, ...points.map((p) => p.v));
  const min = Math.min(0, ...points.map((p) => p.v));
  const x = (t: number) => (t1 === t0 ? 300 : 10 + ((t - t0) / (t1 - t0)) * 580);
  const y = (v: number) => 140 - ((v - min) / (max - min)) * 130;
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  const end = money({ amount: total, currency: 'EUR' });
  return html`<figure><svg viewBox="0 0 600 150" width="100%" role="img" aria-label="balance over time: ${points.length} entries, ${end} at the end"><line x1="10" y1="${y(0)}" x2="590" y2="${y(0)}" stroke="#767f90"/>
<path d="${line}" fill="none" stroke="#2f5bc4" stroke-width="3"/>${points.map((p) => html`<circle cx="${x(p.t).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="4" fill="#2f5bc4"/>`)}</svg>
<figcaption><span><time>${new Date(t0).toISOString().slice(0, 10)}</time></span><span><time>${new Date(t1).toISOString().slice(0, 10)}</time> · ${end}</span></figcaption></figure>`;
};
