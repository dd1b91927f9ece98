/**
 * The service in a process of its own, as it is deployed: the benchmark's load generator
 * and its raw routes run elsewhere, so neither takes this process's event loop. Started by
 * `bench/processes.ts` with the database's URL and the tokens in its environment; answers
 * `drain`, `settled` and `stop` over the IPC channel and prints nothing else.
 *
 * With `--cpu-prof` in its Node options the profile is written when it stops.
 */
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/service.js';
import { benchLimits } from './service.js';

interface Ask {
  id: number;
  kind: 'drain' | 'settled' | 'stop';
}

const main = async () => {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  const service = await startService({
    config: { ...loadConfig({ SVC_ENV: 'sandbox', PORT: '0', LOG_LEVEL: 'silent' }), allowPrivateTargets: true },
    databaseUrl: env('BENCH_DATABASE_URL'),
    operatorToken: env('BENCH_OPERATOR_TOKEN'),
    secretKey: env('BENCH_SECRET_KEY'),
    logger: pino({ level: 'silent' }),
    limits: benchLimits,
    poolSize: 20,
  });
  const origin = await service.listen();
  const send = (message: unknown) => process.send?.(message);
  process.on('message', (ask: Ask) => {
    const answer = (work: Promise<unknown>) =>
      work.then(
        () => send({ id: ask.id, ok: true }),
        (error: unknown) => send({ id: ask.id, ok: false, error: String(error) }),
      );
    if (ask.kind === 'drain') void answer(service.drain());
    else if (ask.kind === 'settled')
      void answer(
        service.services.store
          .lastCommitted()
          .then((head) => service.services.projections.waitFor(head, 60_000))
          .then((ok) => {
            if (!ok) throw new Error('the read models did not apply the last orders within 60 s');
          }),
      );
    else if (ask.kind === 'stop')
      void answer(service.stop()).then(() => {
        process.disconnect();
        // exiting on its own lets --cpu-prof write its profile
        process.exitCode = 0;
      });
  });
  send({ ready: origin });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
