import { describe, expect, it } from 'vitest';
import { csvRecords, isText, keyRecords, lineOfKey, lineRuns, readKeyFile } from '../../src/domain/key-file.js';

const anyKey = () => undefined;

describe('Reading a file of keys', () => {
  it('takes the first column of CSV or TSV, without BOM, quotes, spaces or blank lines, and names every line it leaves', () => {
    const read = readKeyFile('\uFEFF"Serial"\tnote\r\n\r\n "AB-1" \tx\r\nAB-2;y\r\nAB-1\r\n"open\r\n', anyKey);
    expect(read.keys).toEqual([
      { line: 3, value: 'AB-1' },
      { line: 4, value: 'AB-2' },
    ]);
    expect(read.refused.map((r) => [r.line, r.reason])).toEqual([
      [1, 'looks_like_header'],
      [2, 'empty'],
      [5, 'duplicate_in_file'],
      [6, 'unreadable'],
    ]);
    expect(read.lines).toBe(6);
  });

  it('a header is a first line only; control characters are not text; too long is over 1,024 characters', () => {
    const read = readKeyFile(['A-1', 'key', 'B\u0007C', 'x'.repeat(1025)].join('\n'), anyKey);
    expect(read.keys.map((k) => k.value)).toEqual(['A-1', 'key']);
    expect(read.refused.map((r) => r.reason)).toEqual(['not_text', 'too_long']);
    expect(JSON.stringify(read.refused)).not.toContain('x'.repeat(20));
  });

  it('a key that does not fit the format is refused with the format in words', () => {
    const read = readKeyFile('AAAA\nbb\n', (v) => (v === v.toUpperCase() ? undefined : 'capitals only'));
    expect(read.refused).toEqual([{ line: 2, reason: 'format_mismatch', shown: '••', detail: 'capitals only' }]);
  });

  it('finds a key by its place from runs of lines, and tells text from other bytes', () => {
    const runs = lineRuns([1, 2, 3, 7, 8, 10].map((line) => ({ line, value: '' })));
    expect(runs).toEqual([
      [1, 3],
      [7, 2],
      [10, 1],
    ]);
    expect([0, 2, 3, 4, 5].map((i) => lineOfKey(runs, i))).toEqual([1, 3, 7, 8, 10]);
    expect(isText(Buffer.from('AB-1\r\nAB-2\n'))).toBe(true);
    expect(isText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(false);
    expect(isText(Buffer.from([0xc3, 0x28]))).toBe(false);
  });

  it('reads a plain file of a key per line as the CSV parser does, split instead', () => {
    const plain = [
      '',
      '\n',
      'AB-1',
      'AB-1\n',
      'AB-1\nAB-2',
      'AB-1\n\nAB-2\n\n',
      '\n\n  AB-1  \n AB-2\n   \n',
      'AB-1\r\nAB-2\r\n\r\nAB-3',
      '\uFEFFkey\nHLX1-AAAA-0003\n',
      'x\n' + 'y'.repeat(1500) + '\nKEY/+=()[]{}|~!#$%&*?@^_`<>.:\n',
    ];
    for (const text of plain) expect(keyRecords(text, []), JSON.stringify(text)).toEqual(csvRecords(text, []));
  });
});
