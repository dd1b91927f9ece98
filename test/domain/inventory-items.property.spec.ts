import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES, TEXT_MAX_CHARS, validateItem } from '../../src/domain/inventory-items.js';

const signatures = {
  'application/pdf': Buffer.from('%PDF-'),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
} as const;

describe('the upload validator (properties)', () => {
  it('accepts exactly the text values of 1 to 1,024 characters that are not blank', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 1100 }), (value) => {
        const result = validateItem({ kind: 'text', value }, 0);
        const length = [...value].length;
        const ok = length >= 1 && length <= TEXT_MAX_CHARS && value.trim() !== '';
        expect('item' in result).toBe(ok);
        if ('item' in result) expect(result.item).toEqual({ kind: 'text', value });
      }),
    );
  });

  it('accepts a file exactly when its decoded bytes fit and start with its type signature', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(signatures) as (keyof typeof signatures)[])),
        fc.constantFrom(...(Object.keys(signatures) as (keyof typeof signatures)[])),
        // sizes anywhere, and many at the limit, where an off-by-one would hide
        fc.oneof(
          fc.integer({ min: 0, max: FILE_MAX_BYTES + 16 }),
          fc.integer({ min: FILE_MAX_BYTES - 4, max: FILE_MAX_BYTES + 4 }),
        ),
        (declared, actual, extra) => {
          const bytes = Buffer.concat([
            signatures[actual],
            Buffer.alloc(Math.max(0, extra - signatures[actual].length)),
          ]);
          const result = validateItem(
            { kind: 'file', file_name: 'k', content_type: declared, content_base64: bytes.toString('base64') },
            3,
          );
          const fits = bytes.length <= FILE_MAX_BYTES;
          const matches = signatures[declared].equals(bytes.subarray(0, signatures[declared].length));
          if (fits && matches) {
            // Buffer.equals, not a deep equality over 200 KB of elements
            expect('item' in result && result.item.kind === 'file' && result.item.bytes.equals(bytes)).toBe(true);
            expect(result).toMatchObject({ item: { kind: 'file', fileName: 'k', contentType: declared } });
          } else
            expect(result).toEqual({
              rejection: { index: 3, code: fits ? 'content_mismatch' : 'file_too_large', message: expect.any(String) },
            });
        },
      ),
      { numRuns: 80 },
    );
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), fc.nat(), (raw, index) => {
        const result = validateItem(raw, index);
        expect('item' in result || result.rejection.index === index).toBe(true);
      }),
    );
  });

  it('refuses base64 that is not canonical', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 40 })
          .filter((s) => !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)),
        (content) => {
          const result = validateItem(
            { kind: 'file', file_name: 'f', content_type: 'image/png', content_base64: content },
            0,
          );
          expect(result).toMatchObject({ rejection: { code: 'invalid_base64' } });
        },
      ),
    );
  });

  it("keeps a file's bytes exactly, whatever follows the signature", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(signatures) as (keyof typeof signatures)[])),
        fc.uint8Array({ maxLength: 2000 }),
        (type, rest) => {
          const bytes = Buffer.concat([signatures[type], Buffer.from(rest)]);
          expect(
            validateItem(
              { kind: 'file', file_name: 'k', content_type: type, content_base64: bytes.toString('base64') },
              0,
            ),
          ).toEqual({
            item: { kind: 'file', fileName: 'k', contentType: type, bytes },
          });
        },
      ),
    );
  });

  it('accepts a file name exactly when it has 1 to 255 characters, is not blank, and has no path separator or control character', () => {
    const png = signatures['image/png'].toString('base64');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: fc.constantFrom('a', '.', ' ', '/', '\\', '\n', '\u0000', '\u007f', 'é'), maxLength: 8 }),
        ),
        (name) => {
          const result = validateItem(
            { kind: 'file', file_name: name, content_type: 'image/png', content_base64: png },
            0,
          );
          const ok =
            name.length >= 1 && name.length <= 255 && name.trim() !== '' && !/[/\\\u0000-\u001f\u007f]/.test(name); // eslint-disable-line no-control-regex -- the rule under test
          expect('item' in result ? 'ok' : result.rejection.code).toBe(ok ? 'ok' : 'invalid_file_name');
        },
      ),
    );
  });

  it('refuses any field an item does not define', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 10 })
          .filter((k) => !['kind', 'value', 'file_name', 'content_type', 'content_base64', '__proto__'].includes(k)),
        fc.constantFrom('text', 'file'),
        (extra, kind) => {
          const base =
            kind === 'text'
              ? { kind, value: 'KEY' }
              : {
                  kind,
                  file_name: 'k.png',
                  content_type: 'image/png',
                  content_base64: signatures['image/png'].toString('base64'),
                };
          expect(validateItem({ ...base, [extra]: 1 }, 4)).toEqual({
            rejection: { index: 4, code: 'invalid_item', message: `unknown field ${extra} on a ${kind} item` },
          });
        },
      ),
    );
  });

  it("refuses a content type that is a name of Object.prototype's, not one of the three", () => {
    const png = signatures['image/png'].toString('base64');
    for (const contentType of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])
      expect(
        validateItem({ kind: 'file', file_name: 'k.png', content_type: contentType, content_base64: png }, 2),
      ).toEqual({
        rejection: {
          index: 2,
          code: 'unsupported_content_type',
          message: 'content_type must be application/pdf, image/png or image/jpeg',
        },
      });
  });
});
