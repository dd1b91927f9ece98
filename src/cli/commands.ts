import { ConfigError, loadConfig } from '../config.js';
import { unlessInterrupted } from '../db/stop-on-interrupt.js';
import { EventStoreUnreachable } from '../eventstore/unreachable.js';
import { ledgerAudit, ledgerBalance, ledgerExport, ledgerStatement, ledgerVerify } from './ledger.js';
import { certifyCommand } from './certify.js';
import { importCommand } from './import.js';
import { witnessCommand } from '../sdk/ledger/witness-command.js';
import { listenCommand } from './listen.js';
import { projectionsRebuild, projectionsStatus } from './projections.js';
import { routingExplain } from './routing.js';
import { serve } from './serve.js';

const usage = `usage: npm run cli -- <command>

  serve                         start the service (what npm start runs)
  projections status            each projection's position, version and lag
  projections rebuild [name]    rebuild one or all projections from position 0, live
  routing explain ORDER_ID      the order's recorded routing inputs, re-run: exit 1 unless the same winner
  ledger audit [--supplier ID] [--as-of TIMESTAMP]
                                replay the ledger, compare with the read models, exit 1 on any difference
  ledger export --supplier ID --format csv|jsonl [--from TIMESTAMP] [--to TIMESTAMP]
                                the supplier's ledger entries, replayed from the events
  ledger balance --supplier ID [--as-of TIMESTAMP]
                                the balance as it stood then, replayed from the events
  ledger verify [--supplier ID] [--checkpoint FILE|-] [--public-key FILE|URL]
                                check every entry's signature with the public key, exit 1 naming each one refused;
                                with --checkpoint, against a head the supplier kept
  ledger statement --supplier ID --month YYYY-MM --format csv|html
                                a monthly statement: opening balance, entries, closing balance
  ledger witness --base-url ORIGIN --public-key FILE|URL --witness-key FILE --state FILE
                                check each new signed head extends the last accepted one, cosign it; exit 1 on a fork
  listen --base-url ORIGIN --forward-to URL [--events TYPE,…]
                                forward your webhook events to a local receiver while it runs (no endpoint needed)
  inventory import OFFER_ID PATH --base-url ORIGIN [--import ID] [--refused PATH]
                                import a file of keys into an offer, with a progress bar`;

const main = async (args: string[]): Promise<number | undefined> => {
  // need no database and no settings: a supplier runs them on its own machine
  if (args[0] === 'certify') return certifyCommand(args.slice(1));
  if (args[0] === 'listen') return listenCommand(args.slice(1));
  if (args[0] === 'inventory' && args[1] === 'import') return importCommand(args.slice(2));
  if (args[0] === 'ledger' && args[1] === 'witness') return witnessCommand(args.slice(2));
  const config = loadConfig();
  const [command, sub, arg] = args;
  if (command === 'serve') return void (await serve(config));
  if (command === 'projections' && sub === 'status') return projectionsStatus(config);
  if (command === 'projections' && sub === 'rebuild') return projectionsRebuild(config, arg);
  if (command === 'routing' && sub === 'explain') return routingExplain(config, arg);
  if (command === 'ledger' && sub === 'audit') return ledgerAudit(config, args.slice(2));
  if (command === 'ledger' && sub === 'export') return ledgerExport(config, args.slice(2));
  if (command === 'ledger' && sub === 'balance') return ledgerBalance(config, args.slice(2));
  if (command === 'ledger' && sub === 'verify') return ledgerVerify(config, args.slice(2));
  if (command === 'ledger' && sub === 'statement') return ledgerStatement(config, args.slice(2));
  console.error(usage);
  return 2;
};

// interrupted while it runs on an embedded server it started, a command ends with the
// interruption's code once that server is stopped, whatever its work then met
unlessInterrupted(main(process.argv.slice(2))).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error) => {
    // settings and an unreachable store are the operator's to fix: the message says what, no stack
    if (error instanceof EventStoreUnreachable) console.error(`refusing to start: ${error.message}`);
    else console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
