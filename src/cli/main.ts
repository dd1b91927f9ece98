import { ConfigError, loadConfig } from '../config.js';
import { certifyCommand } from './certify.js';
import { ledgerAudit, ledgerExport } from './ledger.js';
import { projectionsRebuild, projectionsStatus } from './projections.js';
import { serve } from './serve.js';

const usage = `usage: npm run cli -- <command>

  serve                         start the service (what npm start runs)
  projections status            each projection's position, version and lag
  projections rebuild [name]    rebuild one or all projections from position 0, live
  ledger audit [--supplier ID] [--as-of TIMESTAMP]
                                replay the ledger, compare with the read models, exit 1 on any difference
  ledger export --supplier ID --format csv|jsonl
                                the supplier's ledger entries, replayed from the events
  certify --base-url URL --secret SECRET [--kind declared|topup] [--json]
                                run the go-live certification against your own supplier server`;

const main = async (args: string[]): Promise<number | undefined> => {
  // needs no database and no settings: a supplier runs it before signing up
  if (args[0] === 'certify') return certifyCommand(args.slice(1));
  const config = loadConfig();
  if (config.eventStore === 'kurrentdb') {
    console.error('SVC_EVENT_STORE=kurrentdb: this build ships the Postgres event store only');
    return 2;
  }
  const [command, sub, arg] = args;
  if (command === 'serve') return void (await serve(config));
  if (command === 'projections' && sub === 'status') return projectionsStatus(config);
  if (command === 'projections' && sub === 'rebuild') return projectionsRebuild(config, arg);
  if (command === 'ledger' && sub === 'audit') return ledgerAudit(config, args.slice(2));
  if (command === 'ledger' && sub === 'export') return ledgerExport(config, args.slice(2));
  console.error(usage);
  return 2;
};

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
