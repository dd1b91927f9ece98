/**
 * The whole suite while one core is taken by a spinning child process: a test that only
 * passes on an idle machine (a fixed sleep, a wall-clock bound, an order between
 * independent work) shows here. `npm run test:busy [-- <vitest args>]`; exits with the
 * suite's status.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();

// the spinner checks now and then that its parent is still there: killed without a chance
// to clean up, this script leaves no process spinning behind it
const spin = `const parent = process.ppid; for (let i = 0; ; i++) if (i % 1e8 === 0 && process.ppid !== parent) process.exit(0);`;
const spinner = spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
const stopSpinner = () => {
  if (spinner.exitCode === null && spinner.signalCode === null) spinner.kill('SIGKILL');
};
process.on('exit', stopSpinner);

const suite: ChildProcess = spawn(
  path.join(root, 'node_modules', '.bin', 'vitest'),
  ['run', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

const finish = (status: number) => {
  stopSpinner();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\ntest:busy: the suite ran ${seconds} s beside a spinning core; status ${status}\n`);
  process.exit(status);
};

// Ctrl-C reaches the suite too (same process group); the run ends when the suite has
// stopped, so its own cleanup (the embedded PostgreSQL) is not cut short
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    stopSpinner();
    if (suite.exitCode === null && suite.signalCode === null) suite.kill(signal);
  });

suite.on('error', (error) => {
  process.stderr.write(`test:busy: the suite did not start: ${error.message}\n`);
  finish(1);
});
suite.on('exit', (code, signal) => finish(code ?? 128 + (signal ? constants.signals[signal] : 0)));
