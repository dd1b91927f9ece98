import type { FastifyReply } from 'fastify';
import type { Console } from './core.js';
import { csrfField, type Html, html } from './html.js';
import { render } from './page.js';
import type { ConsoleSession } from './session.js';

/** What a destructive action's confirmation says and where its button posts. */
export interface Confirmation {
  title: string;
  active: string;
  /** What happens, in words: what goes, what stays, how many. */
  consequence: Html | string;
  /** Where the confirming form posts (the action itself). */
  action: string;
  button: string;
  /** Where "Cancel" leads: back to what was being looked at. */
  back: string;
}

/**
 * A destructive action asks first: its button on the page is a link to this confirmation
 * (a GET, which changes nothing), and only the confirmation's form posts the action, with
 * the form's own token as its Idempotency-Key like every console form.
 */
export const confirmPage = (c: Console, reply: FastifyReply, s: ConsoleSession, o: Confirmation) =>
  render(
    c,
    reply,
    s,
    { title: o.title, active: o.active },
    html`<h1>${o.title}</h1><div class="card"><p>${o.consequence}</p><form class="row" method="post" action="${o.action}">${csrfField(s.csrf)}<button type="submit" class="danger">${o.button}</button><a href="${o.back}">Cancel</a></form></div>`,
  );

/** The link that opens a confirmation, styled as the button it stands for. */
export const confirmLink = (href: string, text: string) => html`<a class="button danger" href="${href}">${text}</a>`;
