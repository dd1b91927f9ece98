import { FILE_MAX_BYTES } from '../domain/inventory-items.js';

/**
 * How much of an answer from outside is read, per kind of call (outboundCall's
 * `maxAnswerBytes`). A supplier's or a webhook receiver's server decides what it sends; read
 * without a limit, one answer of 100 MB held 100 MB of the service (several times over
 * while it was joined, decoded and parsed) for as long as the call lasted. Past its limit
 * an answer is not read on: the connection is closed under it.
 *
 * Each limit is above the largest answer the contract allows, so no valid answer is ever
 * refused: "valid" being what a JSON encoder writes for it, escapes and indentation included.
 */

/**
 * Every answer of the supplier-hosted contract but the items answer: a few short fields
 * (ids the service sent, a status, `code` up to 64 characters, `receipt_ref` up to 128, a
 * `message` or an `account_label`), well under 1 KB however it is escaped. 64 KiB.
 */
export const SMALL_ANSWER_BYTES = 64 * 1024;

/** The base64 of the largest file item (200 KB decoded): 4 characters per 3 bytes, 273,068. */
const BASE64_MAX_CHARS = Math.ceil(FILE_MAX_BYTES / 3) * 4;
/** A file item's `file_name`: 1 to 255 characters (src/domain/inventory-items.ts). */
const FILE_NAME_MAX_CHARS = 255;
/** One item's field names, `kind`, `content_type`, punctuation and indentation: well under this. */
const ITEM_SYNTAX_BYTES = 4096;

/**
 * The most one item of an items answer can take, the largest file item written by the most
 * escaping encoder: every base64 character as two bytes (`/` written `\/`, as PHP's
 * json_encode does; 546,136), its `=` padding as `\u003d` (Gson; 12), every character of
 * the file name as `\uXXXX` (1,530), and 4 KiB of syntax: 551,774 bytes. A text item (at
 * most 1,024 characters, 12 bytes each when written as two `\u` escapes: 12,288) is smaller.
 */
export const ITEM_ANSWER_BYTES = 2 * BASE64_MAX_CHARS + 2 * 6 + 6 * FILE_NAME_MAX_CHARS + ITEM_SYNTAX_BYTES;

/**
 * `GET /orders/{id}/items` of an order item of `quantity`: a ready answer carries exactly
 * that many items, around an envelope (`order_id`, `status`) that fits the small limit.
 * Quantity 2 (certification): 1,169,084 bytes; 100 (the most a checkout line orders): 55,242,936.
 */
export const itemsAnswerBytes = (quantity: number): number => SMALL_ANSWER_BYTES + quantity * ITEM_ANSWER_BYTES;

/** A webhook answer: the delivery log keeps its first 4 KB (spec), and no more of it is read. */
export const WEBHOOK_ANSWER_KEPT_BYTES = 4096;
