/**
 * The service in a process of its own, as it is deployed: the benchmark's load generator
 * and its raw routes run elsewhere, so neither takes this process's event loop. Started by
 * `bench/processes.ts` with the database's URL and the tokens in its environment; answers
 * `drain`, `settled` and `stop` over the IPC channel and prints nothing else.
 *
 * `profile-start` and `profile-stop:<name>` take a CPU profile (V8's sampling profiler, as
 * `node --cpu-prof`, sampling every 200 µs) of the seconds between them, written to
 * `<BENCH_PROFILE_DIR>/<name>.cpuprofile` for `bench/profile-summary.ts`.
 *
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts first, as `src/cli/main.ts` starts it:
 * the service's modules are imported after it, so its instrumentations patch them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import pino from 'pino';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await (await import('../src/tracing-sdk.js')).startTracing();
const { loadConfig } = await import('../src/config.js');
const { startService } = await import('../src/service.js');
const { benchLimits } = await import('./service.js');

interface Ask {
  id: number;
  kind: string;
}

const profiler = async () => {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: () => session.post('Profiler.start'),
    stop: async (name: string) => {
      const { profile } = await session.post('Profiler.stop');
      const dir = process.env.BENCH_PROFILE_DIR ?? '.';
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    },
  };
};

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
  const profile = await profiler();
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
    else if (ask.kind === 'profile-start') void answer(profile.start());
    else if (ask.kind.startsWith('profile-stop:')) void answer(profile.stop(ask.kind.slice('profile-stop:'.length)));
    else if (ask.kind === 'stop')
      void answer(service.stop()).then(() => {
        process.disconnect();
      });
  });
  send({ ready: origin });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
