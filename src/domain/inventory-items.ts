/**
 * The shape rules of an inventory item (spec: Inventory item). Pure: it judges what the
 * supplier sent and returns the normalised item or the reason it is refused.
 */
export const TEXT_MAX_CHARS = 1024;
export const FILE_MAX_BYTES = 200 * 1024;
export const MAX_ITEMS_PER_UPLOAD = 1000;

export const FILE_TYPES = {
  'application/pdf': (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/png': (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b: Buffer) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
} as const;

export type FileType = keyof typeof FILE_TYPES;

/** Bullets a mask shows at most for the characters it hides: the column stays narrow, the length unsaid. */
const MASK_BULLETS = 10;

/**
 * What the supplier sees of a key: at most its first 2 and last 4 characters, and never
 * more than 3 in 8 of a short key's characters (a 12-character key shows 1 and 3; one of 3 or fewer
 * shows none), so a mask never gives a key away. Its tail is what "find by last 4" matches.
 */
export const maskOf = (value: string): { mask: string; head: string; tail: string } => {
  const chars = [...value];
  const tailLength = Math.min(4, Math.floor(chars.length / 4));
  const headLength = Math.min(2, Math.floor(chars.length / 8));
  const head = chars.slice(0, headLength).join('');
  const tail = tailLength === 0 ? '' : chars.slice(-tailLength).join('');
  const hidden = chars.length - headLength - tailLength;
  return { mask: `${head}${'•'.repeat(Math.min(hidden, MASK_BULLETS))}${tail}`, head, tail };
};

/** What the mask shows at its end: the characters "find by last 4" compares (the mask's last run after its bullets). */
export const tailOfMask = (mask: string): string => mask.slice(mask.lastIndexOf('•') + 1);

export type ValidItem =
  { kind: 'text'; value: string } | { kind: 'file'; fileName: string; contentType: FileType; bytes: Buffer };

export interface Rejection {
  index: number;
  code: string;
  message: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const reject = (index: number, code: string, message: string): { rejection: Rejection } => ({
  rejection: { index, code, message },
});

/**
 * One item judged; `format` (the product's key format, `keyFormatCheck`) says why a text key
 * does not fit it, in words.
 */
export const validateItem = (
  raw: unknown,
  index: number,
  format: (value: string) => string | undefined = () => undefined,
): { item: ValidItem } | { rejection: Rejection } => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return reject(index, 'invalid_item', 'an item is an object with a kind');
  const item = raw as Record<string, unknown>;
  if (item.kind === 'text') {
    const extra = Object.keys(item).filter((k) => k !== 'kind' && k !== 'value');
    if (extra.length > 0) return reject(index, 'invalid_item', `unknown field ${extra[0]} on a text item`);
    if (typeof item.value !== 'string') return reject(index, 'invalid_value', 'value must be a string');
    const length = [...item.value].length;
    if (length < 1 || length > TEXT_MAX_CHARS)
      return reject(index, 'invalid_value', `value must be 1 to ${TEXT_MAX_CHARS} characters`);
    if (item.value.trim() === '') return reject(index, 'invalid_value', 'value must not be blank');
    const misfit = format(item.value);
    if (misfit) return reject(index, 'format_mismatch', misfit);
    return { item: { kind: 'text', value: item.value } };
  }
  if (item.kind === 'file') {
    const extra = Object.keys(item).filter((k) => !['kind', 'file_name', 'content_type', 'content_base64'].includes(k));
    if (extra.length > 0) return reject(index, 'invalid_item', `unknown field ${extra[0]} on a file item`);
    const { file_name: fileName, content_type: contentType, content_base64: content } = item;
    // the name travels on to the buyer (a download's name): no path, no control characters
    if (
      typeof fileName !== 'string' ||
      fileName.length < 1 ||
      fileName.length > 255 ||
      // eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
      /[/\\\x00-\x1f\x7f]/.test(fileName) ||
      fileName.trim() === ''
    )
      return reject(
        index,
        'invalid_file_name',
        'file_name must be 1 to 255 characters without path separators or control characters',
      );
    // own keys only: `in` would take `constructor` or `__proto__` from Object.prototype for a type
    if (typeof contentType !== 'string' || !Object.hasOwn(FILE_TYPES, contentType))
      return reject(index, 'unsupported_content_type', 'content_type must be application/pdf, image/png or image/jpeg');
    if (typeof content !== 'string' || content.length === 0 || !BASE64.test(content))
      return reject(index, 'invalid_base64', 'content_base64 must be non-empty, valid base64');
    // decoded size is known from the length, before decoding anything large
    const decodedSize = (content.length / 4) * 3 - (content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0);
    if (decodedSize > FILE_MAX_BYTES)
      return reject(index, 'file_too_large', `files are at most ${FILE_MAX_BYTES} bytes decoded`);
    const bytes = Buffer.from(content, 'base64');
    if (!FILE_TYPES[contentType as FileType](bytes))
      return reject(index, 'content_mismatch', `the bytes are not a ${contentType} file`);
    return { item: { kind: 'file', fileName, contentType: contentType as FileType, bytes } };
  }
  return reject(index, 'invalid_kind', 'kind must be text or file');
};
