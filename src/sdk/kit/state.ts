import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { KitItem, KitState, StockEntry, StockMap } from './types.js';

type FileType = Extract<KitItem, { kind: 'file' }>['content_type'];
const CONTENT_TYPES: string[] = ['application/pdf', 'image/png', 'image/jpeg'] satisfies FileType[];
const MAX_FILE_BYTES = 200 * 1024;

/** A stock entry as an inventory item, checked against the spec's item limits. */
export const toItem = (entry: StockEntry, where: string): KitItem => {
  const item: unknown = typeof entry === 'string' ? { kind: 'text', value: entry } : entry;
  if (typeof item !== 'object' || item === null) throw new Error(`${where}: not an item`);
  const it = item as Record<string, unknown>;
  if (it.kind === 'text') {
    if (typeof it.value !== 'string' || it.value.length < 1 || it.value.length > 1024) {
      throw new Error(`${where}: a text item's value is 1 to 1,024 characters`);
    }
    return { kind: 'text', value: it.value };
  }
  if (it.kind === 'file') {
    if (typeof it.file_name !== 'string' || it.file_name === '')
      throw new Error(`${where}: a file item needs file_name`);
    if (typeof it.content_type !== 'string' || !CONTENT_TYPES.includes(it.content_type)) {
      throw new Error(`${where}: content_type is one of ${CONTENT_TYPES.join(', ')}`);
    }
    if (typeof it.content_base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(it.content_base64)) {
      throw new Error(`${where}: content_base64 is base64`);
    }
    if (Buffer.from(it.content_base64, 'base64').length > MAX_FILE_BYTES)
      throw new Error(`${where}: a file item is at most 200 KB decoded`);
    return {
      kind: 'file',
      file_name: it.file_name,
      content_type: it.content_type as FileType,
      content_base64: it.content_base64,
    };
  }
  throw new Error(`${where}: kind is text or file`);
};

const normalizeStock = (stock: StockMap, where: string): Record<string, KitItem[]> => {
  if (typeof stock !== 'object' || stock === null || Array.isArray(stock))
    throw new Error(`${where}: stock is an object of external_ref to a list of keys`);
  const out: Record<string, KitItem[]> = {};
  for (const [ref, entries] of Object.entries(stock)) {
    if (!Array.isArray(entries)) throw new Error(`${where}: stock.${ref} is a list`);
    out[ref] = entries.map((e, i) => toItem(e, `${where}: stock.${ref}[${i}]`));
  }
  return out;
};

const emptyState = (stock: Record<string, KitItem[]>, unlimited: boolean): KitState => ({
  stock,
  unlimited,
  reservations: {},
  orders: {},
  operations: {},
  cancelled_orders: [],
  topups_performed: 0,
});

/** The kit's state and where it is kept: memory only, or a JSON file rewritten after every change. */
export class KitStore {
  readonly state: KitState;
  private readonly file: string | null;

  constructor(stock: StockMap | string | undefined) {
    if (typeof stock === 'string') {
      this.file = path.resolve(stock);
      if (!existsSync(this.file))
        throw new Error(
          `stock file ${this.file} does not exist; write {"stock": {"<external_ref>": ["KEY-1", ...]}} into it`,
        );
      const doc = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<KitState> & { stock?: StockMap };
      if (typeof doc !== 'object' || doc === null || doc.stock === undefined)
        throw new Error(`${this.file}: expected an object with a "stock" member`);
      const state = emptyState(normalizeStock(doc.stock, this.file), false);
      this.state = {
        ...state,
        reservations: doc.reservations ?? {},
        orders: doc.orders ?? {},
        operations: doc.operations ?? {},
        cancelled_orders: doc.cancelled_orders ?? [],
        topups_performed: doc.topups_performed ?? 0,
      };
      this.save();
    } else {
      this.file = null;
      this.state =
        stock === undefined ? emptyState({}, true) : emptyState(normalizeStock(stock, 'stock option'), false);
    }
  }

  /** The pool serving `externalRef`: its own entry, else `'*'`; null when nothing is configured for it. */
  poolFor(externalRef: string): string | null {
    if (this.state.stock[externalRef] !== undefined) return externalRef;
    if (this.state.stock['*'] !== undefined) return '*';
    return null;
  }

  /** Takes `quantity` keys out of stock; undefined when there are not enough. */
  take(externalRef: string, quantity: number): { pool: string | null; items: KitItem[] } | undefined {
    if (this.state.unlimited) return { pool: null, items: Array.from({ length: quantity }, generatedKey) };
    const pool = this.poolFor(externalRef);
    if (pool === null) return undefined;
    const keys = this.state.stock[pool]!;
    if (keys.length < quantity) return undefined;
    return { pool, items: keys.splice(0, quantity) };
  }

  /** Puts keys back into their pool (generated keys are dropped). */
  give(pool: string | null, items: KitItem[]): void {
    if (pool === null || this.state.unlimited) return;
    (this.state.stock[pool] ??= []).push(...items);
  }

  /** Keys available for `externalRef` (Infinity when unlimited). */
  available(externalRef: string): number {
    if (this.state.unlimited) return Number.POSITIVE_INFINITY;
    const pool = this.poolFor(externalRef);
    return pool === null ? 0 : this.state.stock[pool]!.length;
  }

  save(): void {
    if (this.file === null) return;
    const { unlimited: _unlimited, ...doc } = this.state;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`);
    renameSync(tmp, this.file);
  }
}

const generatedKey = (): KitItem => {
  const hex = randomBytes(8).toString('hex').toUpperCase();
  return { kind: 'text', value: `KIT-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12)}` };
};

export const newReceiptRef = (): string => `RCPT-${randomBytes(10).toString('hex').toUpperCase()}`;
