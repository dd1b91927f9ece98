import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { buildHttpApp } from '../http/app.js';
import { Metrics } from '../metrics.js';
import { type Services } from '../http/services.js';

/**
 * The service's OpenAPI document, built from the route table without a database: routes
 * only touch their services when called, so registering them against empty services is
 * enough to describe them. Used by `npm run lint:openapi` and `npm run sdk:generate`.
 */
export const openApiDocument = async (): Promise<Record<string, unknown>> => {
  const services = { config: loadConfig({}), metrics: new Metrics(), commands: {} } as unknown as Services;
  const app = await buildHttpApp(services, pino({ level: 'silent' }));
  await app.ready();
  const doc = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return doc;
};

/** `tsx src/cli/openapi.ts` prints the document; `… lint` runs the linter on it (`npm run lint:openapi`). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
  if (process.argv[2] !== 'lint') process.stdout.write(text);
  else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, text);
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const run = spawnSync(
      path.join(root, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=summary'],
      {
        stdio: 'inherit',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    rmSync(dir, { recursive: true, force: true });
    process.exitCode = run.status ?? 1;
  }
}
