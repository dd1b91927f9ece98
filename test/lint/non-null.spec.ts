import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nonNullSites } from './non-null-count.js';

/**
 * Commands and processes state what they rely on (a narrowing, a lookup that names what was
 * missing: src/domain/required.ts) instead of asserting it with `!`. Counted on the AST, so
 * `!=`, a negation or a `!` in a string or comment never counts.
 */
const root = path.resolve(import.meta.dirname, '../..');
const LIMIT = 15;

describe('non-null assertions', () => {
  it(`src/commands and src/processes together hold fewer than ${LIMIT}`, () => {
    const sites = ['src/commands', 'src/processes'].flatMap((dir) => nonNullSites(path.join(root, dir)));
    const listed = sites.map((s) => `${path.relative(root, s.file)}:${s.line} ${s.text}`);
    expect(listed.length, listed.join('\n')).toBeLessThan(LIMIT);
  });

  it('counts the assertions of a file and nothing else', () => {
    const sites = nonNullSites(path.join(root, 'test/lint/fixtures/non-null'));
    expect(sites.map((s) => [s.line, s.text])).toEqual([
      [4, 'items[0]!'],
      [5, "byId.get('a')!"],
    ]);
  });
});
