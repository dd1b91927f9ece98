#!/usr/bin/env node
import { witnessCommand } from '../ledger/witness-command.js';

// `svc-ledger-witness`, as the package installs it: the service's `ledger witness`, run anywhere
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
process.exitCode = await witnessCommand(process.argv.slice(2), process.env, console.log, console.error, stop.signal);
