import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Console, ROUTE } from '../core.js';
import { html } from '../html.js';
import { params, render, signedIn } from '../page.js';
import type { ConsoleSession } from '../session.js';
import { ledgerCsv } from '../../../projections/ledger-csv.js';
import { allEntries, balanceFilter } from './balance.js';
import { apiEntryRow } from './balance-csv-row.js';

/**
 * The balance entries of the page's filter as the ledger's CSV, in the columns of every ledger
 * export; a filter it cannot read is a page saying why, not a file.
 */
const exportCsv = async (c: Console, req: FastifyRequest, reply: FastifyReply, s: ConsoleSession) => {
  const filter = balanceFilter(params(req));
  const read = filter.refusal
    ? { entries: [], refusal: filter.refusal, status: 422 }
    : await allEntries(c, req, s, filter.api);
  if (read.refusal)
    return render(
      c,
      reply,
      s,
      {
        title: 'Export refused',
        active: 'balance',
        error: Object.values(read.refusal.fields).join(' ') || read.refusal.message,
      },
      html`<h1>Export CSV</h1><p><a href="/console/balance">Back to the balance</a></p>`,
      read.status ?? 422,
    );
  return reply
    .header('content-disposition', 'attachment; filename="balance-entries.csv"')
    .header('cache-control', 'no-store')
    .type('text/csv; charset=utf-8')
    .send(ledgerCsv(read.entries.map(apiEntryRow)));
};

export const registerBalanceCsv = (site: FastifyInstance, c: Console) => {
  site.get('/console/balance.csv', ROUTE, async (req, reply) => {
    const s = signedIn(req, reply);
    if (s) return exportCsv(c, req, reply, s);
  });
};
