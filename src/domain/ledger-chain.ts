import { hash } from 'node:crypto';

/**
 * The tamper-evident chain over one supplier's ledger: each entry's hash is
 * sha256(previous hash + canonical content of this entry). Changing, deleting or reordering
 * one stored entry breaks every link from it on; a supplier who kept a head (the proof)
 * can later show that the history it covers was not rewritten. Pure: hashing is
 * computation, not I/O.
 */
export interface ChainLink {
  /** 0 for a supplier's first entry. */
  seq: number;
  prev: string;
  hash: string;
}

/** The head before any entry. */
export const GENESIS = '0'.repeat(64);

/**
 * JSON with object keys sorted at every depth: the same content always gives the same text.
 * Built in one pass per value (every ledger event is hashed when decided and when folded).
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // as Array.join writes it: nothing for a value JSON has no text for
      out += (canonicalJson(value[i]) as string | undefined) ?? '';
    }
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let out = '{';
    for (const key of Object.keys(record).sort()) {
      const field = record[key];
      if (field === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${canonicalJson(field)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value);
};

/** What an entry's hash covers: its type and data, without its own link. */
export const chainContent = (event: { type: string; data: unknown }) => {
  const { chain: _link, ...data } = event.data as Record<string, unknown>;
  return canonicalJson({ type: event.type, data });
};

/** The head after `event`, from the head before it. */
export const linkHash = (prev: string, event: { type: string; data: unknown }) =>
  hash('sha256', prev + chainContent(event), 'hex');

/** Adds each new event's link, continuing from the stream's head. */
export const chainEvents = <E extends { type: string; data: object }>(
  head: string,
  length: number,
  events: E[],
): E[] => {
  let prev = head;
  return events.map((event, i) => {
    const hash = linkHash(prev, event);
    const chained = { ...event, data: { ...event.data, chain: { seq: length + i, prev, hash } } };
    prev = hash;
    return chained;
  });
};
