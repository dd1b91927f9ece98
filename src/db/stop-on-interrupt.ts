import os from 'node:os';

/**
 * The embedded PostgreSQL servers this process owns are stopped when it is interrupted. A
 * command ended by SIGINT or SIGTERM, or by a closed stdout (`npm run simulate | head`),
 * ends without unwinding: no `finally` runs, and a server it started would run on.
 *
 * A process with a shutdown of its own for the signal (npm start finishes its requests,
 * then stops its server) keeps it: the hook steps aside while another listener is there.
 * However the process ends, its exit asks every server still owned to stop.
 *
 * SIGPIPE gets no listener. Node ignores it, so a closed stdout shows as EPIPE on the write,
 * which is handled; with a listener, every write to a socket its peer closed raises it too
 * (a client hanging up on npm start, a crash the simulation injects), and a listener once
 * removed leaves the default action, which ends the process.
 *
 * From the moment an interruption begins the stop, the process opens no new database
 * connection (`PgClient` refuses: the servers are about to go), and its program's outcome is
 * the interruption's (`unlessInterrupted`): work that then fails on a server stopping under it
 * does not end the process with a code of its own before the servers are stopped.
 */

export interface OwnedServer {
  /** Stops the server and waits for it to be gone. */
  stop(): Promise<void>;
  /** Asks the server to stop, without waiting: all that a process's exit allows. */
  requestStop(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const owned = new Set<OwnedServer>();
let stopping = false;

const interrupted = (cause: NodeJS.Signals, othersListening: boolean) => {
  if (othersListening) return;
  const code = 128 + os.constants.signals[cause];
  // a second interruption does not wait for the first's stop: the exit still asks each server to stop
  if (stopping) process.exit(code);
  stopping = true;
  void Promise.allSettled([...owned].map((server) => server.stop())).then(() => process.exit(code));
};

const onSignal = Object.fromEntries(
  SIGNALS.map((signal) => [signal, () => interrupted(signal, process.listenerCount(signal) > 1)]),
) as Record<(typeof SIGNALS)[number], () => void>;

const onStdoutError = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  // what SIGPIPE means to a writer: whoever read its output has gone
  interrupted('SIGPIPE', process.stdout.listenerCount('error') > 1);
};

const onExit = () => {
  for (const server of owned) server.requestStop();
};

const hook = () => {
  for (const signal of SIGNALS) process.on(signal, onSignal[signal]);
  process.stdout.on('error', onStdoutError);
  process.on('exit', onExit);
};

const unhook = () => {
  for (const signal of SIGNALS) process.removeListener(signal, onSignal[signal]);
  process.stdout.removeListener('error', onStdoutError);
  process.removeListener('exit', onExit);
};

/** Whether an interruption began this process's stop: no new database connection from then on. */
export const interruptionBegan = (): boolean => stopping;

/**
 * `work`'s outcome, unless an interruption began the process's stop meanwhile: then neither
 * its result nor its failure (most likely the server stopping under it) is the program's to
 * report, and this waits for the exit the interruption makes once its servers are stopped.
 */
export const unlessInterrupted = async <T>(work: Promise<T>): Promise<T> => {
  const outcome = await work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (stopping) return new Promise<never>(() => undefined);
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
};

/** Owns `server` until the returned release is called (once it has been stopped). */
export const stopOnInterrupt = (server: OwnedServer): (() => void) => {
  if (owned.size === 0) hook();
  owned.add(server);
  return () => {
    if (!owned.delete(server)) return;
    if (owned.size === 0) unhook();
  };
};
