import { pricingRuleSetV2 } from './pricing-rule.js';

/**
 * The event types whose data changed shape since they were first written: each with its
 * current version and one upcaster per older version (`upcast[n]` turns version n into
 * n + 1). A type that is not listed is at version 1. Deciders, projectors and process
 * managers see only the current shape; the event store runs older events through the chain
 * on every read (src/eventstore/upcast.ts, wired in where the service is assembled).
 *
 * To change a type's shape: raise its `current`, add the upcaster from the old version, and
 * change the type and the code that writes it. Never edit an upcaster that has shipped: events
 * of its version exist. Balance-stream events are hash-chained over their stored content,
 * so they never get an upcaster; a new shape for them is a new event type.
 *
 * Pure, and without imports from outside the domain: this is the shape the event store's
 * EventVersionTable expects.
 */
export interface EventTypeVersions {
  readonly current: number;
  readonly upcast: Readonly<Record<number, (data: unknown) => unknown>>;
}

/** InventoryUploaded as first written: an object per accepted item, the fingerprint in hex. */
interface InventoryUploadedV1 {
  offerId: string;
  items: {
    itemId: string;
    kind: 'text' | 'file';
    fingerprint: string;
    fileName: string | null;
    contentType: string | null;
  }[];
  rejected: unknown[];
  at: string;
}

/**
 * Version 1 to 2: the items as columns, the files named by place, and each fingerprint cut
 * to what version 2 keeps (the first 128 bits of the same HMAC, base64url), so a key
 * uploaded before is still found as a duplicate of the same key uploaded now.
 */
export const inventoryUploadedV2 = (data: unknown): unknown => {
  const { items, ...rest } = data as InventoryUploadedV1;
  const files: { place: number; fileName: string; contentType: string }[] = [];
  items.forEach((item, place) => {
    if (item.kind === 'file') files.push({ place, fileName: item.fileName ?? '', contentType: item.contentType ?? '' });
  });
  return {
    offerId: rest.offerId,
    itemIds: items.map((i) => i.itemId),
    fingerprints: items.map((i) => Buffer.from(i.fingerprint.slice(0, 32), 'hex').toString('base64url')),
    files,
    rejected: rest.rejected,
    at: rest.at,
  };
};

/** InventoryUploaded as version 2 wrote it: no masks, no file sizes, nothing held. */
interface InventoryUploadedV2 {
  offerId: string;
  itemIds: string[];
  fingerprints: string[];
  files: { place: number; fileName: string; contentType: string }[];
  rejected: unknown[];
  at: string;
}

/**
 * Version 2 to 3: what the supplier sees of each key (`masks`) and the items held under
 * review on arrival (`held`). A key recorded before has no mask (its value is sealed, and an
 * upcaster sees events only): '' says so, and the lists show it as not known. A file's size
 * was not recorded either: null. Nothing was held before collisions were looked for.
 */
export const inventoryUploadedV3 = (data: unknown): unknown => {
  const v2 = data as InventoryUploadedV2;
  return {
    offerId: v2.offerId,
    itemIds: v2.itemIds,
    fingerprints: v2.fingerprints,
    masks: v2.itemIds.map(() => ''),
    files: v2.files.map((f) => ({ ...f, size: null })),
    held: [],
    rejected: v2.rejected,
    at: v2.at,
  };
};

/** Version 1 to 2: products made before key formats accept any key (`keyFormat: null`). */
export const productCreatedV2 = (data: unknown): unknown => ({ ...(data as object), keyFormat: null });

/** Version 1 to 2: an import started before the chunk size was recorded ran in chunks of 1,000. */
export const inventoryImportStartedV2 = (data: unknown): unknown => ({ ...(data as object), chunkSize: 1000 });

export const eventVersions: Readonly<Record<string, EventTypeVersions>> = {
  InventoryUploaded: { current: 3, upcast: { 1: inventoryUploadedV2, 2: inventoryUploadedV3 } },
  ProductCreated: { current: 2, upcast: { 1: productCreatedV2 } },
  PricingRuleSet: { current: 2, upcast: { 1: pricingRuleSetV2 } },
  InventoryImportStarted: { current: 2, upcast: { 1: inventoryImportStartedV2 } },
};
