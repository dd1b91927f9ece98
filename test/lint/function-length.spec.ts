import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTION_LINE_LIMIT, longFunctions } from './function-length-count.js';

/**
 * Functions a reader takes in at once: none over 60 lines (every line from the first to the
 * last, comments included, lint exemptions or not) where the rules live, and few anywhere.
 */
const root = path.resolve(import.meta.dirname, '../..');
const listed = (dir: string) =>
  longFunctions(path.join(root, dir)).map((f) => `${path.relative(root, f.file)}:${f.line} ${f.name} (${f.lines})`);

describe('function length', () => {
  it(`src/domain, src/commands and src/processes hold no function over ${FUNCTION_LINE_LIMIT} lines`, () => {
    expect(['src/domain', 'src/commands', 'src/processes'].flatMap(listed)).toEqual([]);
  });

  it('all of src holds at most 15', () => {
    const all = listed('src');
    expect(all.length, all.join('\n')).toBeLessThanOrEqual(15);
  });

  it('counts every line of a function, its own and its nested ones', () => {
    const found = longFunctions(path.join(root, 'test/lint/fixtures/function-length'));
    expect(found.map((f) => [f.name, f.line, f.lines])).toEqual([['long', 3, 61]]);
  });
});
