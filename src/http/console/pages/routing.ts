import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, query, ROUTE, seg } from '../core.js';
import { type Html, html, money, statusPill, whenText } from '../html.js';
import { loadOr, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';

const DAY_MS = 24 * 60 * 60_000;
/** The page shows the last two weeks: enough for a trend, one read of the API's pages. */
const DAYS = 14;

/** The last DAYS whole UTC days, today's included: from its first midnight to the next one. */
const periodOf = (c: Console) => {
  const to = new Date(c.services.clock.now().getTime());
  to.setUTCHours(24, 0, 0, 0);
  return { from: new Date(to.getTime() - DAYS * DAY_MS), to };
};

interface Day {
  day: string;
  orders: number;
  won: number;
}

/** Orders and wins per UTC day of the period, every day present (a day without orders too). */
const perDay = (entries: { routed_at: string; won: boolean }[], to: Date): Day[] => {
  const days: Day[] = [];
  for (let i = DAYS - 1; i >= 0; i--)
    days.push({ day: new Date(to.getTime() - (i + 1) * DAY_MS).toISOString().slice(0, 10), orders: 0, won: 0 });
  for (const e of entries) {
    const day = days.find((d) => d.day === e.routed_at.slice(0, 10));
    if (!day) continue;
    day.orders += 1;
    if (e.won) day.won += 1;
  }
  return days;
};

const share = (d: Day) => (d.orders === 0 ? null : Math.round((d.won / d.orders) * 100));

/**
 * The share of orders won per day as inline SVG bars (no script, no library); its figures are
 * the table under it, which a screen reader reads instead of the drawing.
 */
const shareChart = (days: Day[]): Html => {
  const width = 600;
  const bar = width / days.length;
  return html`<figure><svg viewBox="0 0 ${width} 120" width="100%" role="img" aria-label="share of orders won per day, last ${days.length} days"><line x1="0" y1="110" x2="${width}" y2="110" stroke="#767f90"/>${days.map(
    (d, i) => {
      const pct = share(d) ?? 0;
      const h = pct;
      return html`<rect x="${(i * bar + 4).toFixed(1)}" y="${110 - h}" width="${(bar - 8).toFixed(1)}" height="${h}" fill="${d.orders === 0 ? '#c9ced8' : '#2f5bc4'}"/>`;
    },
  )}</svg><figcaption><span><time>${days[0]!.day}</time></span><span><time>${days.at(-1)!.day}</time></span></figcaption></figure>`;
};

/** The offer's health forecast (GET /offers/{id}/health): the score, what is next, the table's numbers. */
const healthCard = (h: any): Html => {
  if (!h?.rules) return html``;
  const r = h.rules;
  return html`<section class="card" aria-labelledby="health-heading"><h2 id="health-heading" style="margin-top:0">Health forecast</h2>
<p id="health-score">Health ${h.score} of 100: ${h.routing_eligible ? 'routed' : 'not routed'}${h.cooldown_until ? html`, in cooldown until ${whenText(h.cooldown_until)}` : ''}.</p>
${h.next_consequence ? html`<p id="health-next" role="${h.one_step_away ? 'alert' : 'status'}">${h.one_step_away ? 'One step away: ' : ''}${h.next_consequence.message}.</p>` : html`<p id="health-next">No failure counts against this offer.</p>`}
${h.recovery ? html`<p id="health-recovery">Recovery: ${h.recovery.message}.</p>` : ''}
<div class="scroll"><table><caption>The health rules</caption><thead><tr><th>Rule</th><th>Number</th></tr></thead><tbody>
<tr><td>Routing needs at least</td><td>${r.routing_minimum}</td></tr>
<tr><td>A cooldown starts at or below</td><td>${r.cooldown_at_or_below}</td></tr>
<tr><td>A cooldown lasts (minutes)</td><td>${r.cooldown_minutes}</td></tr>
<tr><td>Continuous cooldown that deactivates (hours)</td><td>${r.deactivation_after_cooldown_hours}</td></tr>
<tr><td>Health after a cooldown, and after reactivation</td><td>${r.score_after_cooldown}, ${r.score_after_reactivation}</td></tr>
<tr><td>A failed reservation or order call</td><td>${r.points.call_failure}</td></tr>
<tr><td>A failed healthcheck</td><td>${r.points.healthcheck_failed}</td></tr>
<tr><td>A missed allocation window (and a cooldown at once)</td><td>${r.points.missed_window}</td></tr>
</tbody></table></div></section>`;
};

const routingPage = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const offer = await loadOr(c, req, reply, s, 'offer', `/offers/${seg(id)}`);
  if (!offer) return;
  const o = offer.body;
  const { from, to } = periodOf(c);
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const path = `/offers/${seg(id)}/routing${query({ from: from.toISOString(), to: to.toISOString(), limit: '200', ...(cursor && { cursor }) })}`;
    const answer = await loadOr(c, req, reply, s, 'routing', path);
    if (!answer) return;
    entries.push(...answer.body.data);
    cursor = answer.body.next_cursor;
  } while (cursor);
  const health = (await c.api(req, s, 'GET', `/offers/${seg(id)}/health`)).body;
  const days = perDay(entries, to);
  const won = entries.filter((e) => e.won).length;
  const latest = [...entries].reverse().slice(0, 50);
  return render(
    c,
    reply,
    s,
    { title: 'Routing', active: 'competition' },
    html`<h1>Routing · <a href="/console/offers/${o.id}">${o.external_ref}</a></h1>
<p>Why each order of this product in the last ${DAYS} days went to your offer or not. Other offers show only as a rank and a price gap.</p>
<div class="card stats"><div class="stat">Orders of the product<b id="orders-routed">${entries.length}</b></div><div class="stat">Won by this offer<b id="orders-won">${won}</b></div></div>
${healthCard(health)}
<section class="card" aria-labelledby="share-heading"><h2 id="share-heading" style="margin-top:0">Share of orders won per day</h2>${shareChart(days)}
<div class="scroll"><table><caption>Orders won per day</caption><thead><tr><th>Day</th><th>Orders</th><th>Won</th><th>Share</th></tr></thead><tbody>${days.map((d) => html`<tr><td>${d.day}</td><td>${d.orders}</td><td>${d.won}</td><td>${share(d) === null ? '—' : `${share(d)} %`}</td></tr>`)}</tbody></table></div></section>
<section class="card" aria-labelledby="receipts-heading"><h2 id="receipts-heading" style="margin-top:0">Latest orders</h2>
${latest.length === 0 ? html`<p>No orders of this product in this period.</p>` : html`<div class="scroll"><table><caption>Routing receipts, newest first</caption><thead><tr><th>Routed</th><th>Order</th><th>Result</th><th>Why</th><th>Your price</th></tr></thead><tbody>${latest.map((e) => html`<tr><td>${whenText(e.routed_at)}</td><td><small>${e.order_id}</small></td><td>${statusPill(e.won ? 'selected' : 'not selected')}</td><td>${e.explanation}</td><td>${money(e.your_price)}</td></tr>`)}</tbody></table></div>`}
<p><a href="/console/offers/${o.id}/routing.csv">Download routing receipts (CSV)</a></p></section>`,
  );
};

/** The period's receipts as the API's CSV, whole. */
const routingCsv = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession, id: string) => {
  const { from, to } = periodOf(c);
  const path = `/offers/${seg(id)}/routing${query({ from: from.toISOString(), to: to.toISOString() })}`;
  const answer = await loadOr(c, req, reply, s, 'routing', path, 'text/csv');
  if (!answer) return;
  return reply
    .header('content-disposition', `attachment; filename="routing-${id}.csv"`)
    .header('cache-control', 'no-store')
    .type('text/csv; charset=utf-8')
    .send(answer.text);
};

export const registerRouting = (site: FastifyInstance, c: Console) => {
  site.get('/console/offers/:id/routing', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return routingPage(c, req, reply, s, (req.params as { id: string }).id);
  });
  site.get('/console/offers/:id/routing.csv', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return routingCsv(c, req, reply, s, (req.params as { id: string }).id);
  });
};
