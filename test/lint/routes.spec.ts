import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTION_LINE_LIMIT, longFunctions } from './function-length-count.js';

/**
 * Routes only translate between HTTP and commands or read models: a route file parses, calls
 * a command or a named read function (src/projections/*-reads.ts, src/resources) and answers.
 * Only the HTTP layer's own mechanisms keep their storage in src/http: the Idempotency-Key
 * rows, the rate-limit windows and the readiness probe's ping. The console is its own
 * surface, left out here.
 */
const root = path.resolve(import.meta.dirname, '../..');
const http = path.join(root, 'src/http');
const STORAGE_MODULES = ['src/http/idempotency.ts', 'src/http/rate-limit-sync.ts', 'src/http/system.ts'];
const QUERY = /selectFrom|\.query\(|insertInto|updateTable|deleteFrom|sql`/;

const routeFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'console' ? [] : routeFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });

const outsideConsole = (file: string) => !path.relative(http, file).startsWith(`console${path.sep}`);

describe('routes', () => {
  it('hold no query of their own: src/http outside the console queries only in its storage modules', () => {
    const sites = routeFiles(http).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((text, i) => (QUERY.test(text) ? [`${path.relative(root, file)}:${i + 1}`] : [])),
    );
    expect(sites.filter((site) => !STORAGE_MODULES.includes(site.split(':')[0]!))).toEqual([]);
  });

  it(`declare one small function per route: none in src/http outside the console over ${FUNCTION_LINE_LIMIT} lines but the Idempotency-Key mechanism's`, () => {
    const long = longFunctions(http)
      .filter((f) => outsideConsole(f.file) && path.relative(root, f.file) !== 'src/http/idempotency.ts')
      .map((f) => `${path.relative(root, f.file)}:${f.line} ${f.name} (${f.lines})`);
    expect(long).toEqual([]);
  });
});
