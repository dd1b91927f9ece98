import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/crypto/fingerprint.js';
import { type InventoryEvent, inventoryDecider } from '../../src/domain/inventory.js';
import {
  eventVersions,
  inventoryUploadedV2,
  inventoryImportStartedV2,
  productCreatedV2,
} from '../../src/domain/upcasters.js';
import { EventVersions } from '../../src/eventstore/upcast.js';
import { BALANCE_EVENT_TYPES } from '../../src/projections/ledger.js';

describe('the domain table of event versions', () => {
  it('is a complete chain for every listed type (the service refuses to start otherwise)', () => {
    expect(() => new EventVersions(eventVersions)).not.toThrow();
  });

  it('never upcasts a balance-stream event: the ledger chain covers their stored content', () => {
    expect(Object.keys(eventVersions).filter((type) => BALANCE_EVENT_TYPES.has(type))).toEqual([]);
    expect(BALANCE_EVENT_TYPES.size).toBeGreaterThan(0);
  });
});

describe('InventoryUploaded version 1 to 2', () => {
  const versions = new EventVersions(eventVersions);
  const recorded = (data: unknown, schemaVersion: number) => ({
    id: 'e1',
    streamId: 'inventory-o1',
    revision: 0,
    position: { commit: 1n, prepare: 1n },
    type: 'InventoryUploaded',
    data,
    metadata: {},
    schemaVersion,
    createdAt: new Date('2026-01-05T10:00:00.000Z'),
  });
  const key = 'ab'.repeat(32);
  const hexOf = (content: string) => createHmac('sha256', Buffer.from(key, 'hex')).update(content).digest('hex');

  it('turns the items into columns, names the files by place and keeps the first 128 bits of each fingerprint', () => {
    const v1 = {
      offerId: 'o1',
      items: [
        { itemId: 'i1', kind: 'file', fingerprint: hexOf('file\0A'), fileName: 'a.png', contentType: 'image/png' },
        { itemId: 'i2', kind: 'text', fingerprint: hexOf('text\0B'), fileName: null, contentType: null },
        {
          itemId: 'i3',
          kind: 'file',
          fingerprint: hexOf('file\0C'),
          fileName: 'c.pdf',
          contentType: 'application/pdf',
        },
      ],
      rejected: [{ index: 3, code: 'duplicate_key', message: "this key is already in the offer's stock" }],
      at: '2026-01-05T10:00:00.000Z',
    };
    expect(inventoryUploadedV2(v1)).toEqual({
      offerId: 'o1',
      itemIds: ['i1', 'i2', 'i3'],
      fingerprints: [fingerprint(key, 'file', 'A'), fingerprint(key, 'text', 'B'), fingerprint(key, 'file', 'C')],
      files: [
        { place: 0, fileName: 'a.png', contentType: 'image/png' },
        { place: 2, fileName: 'c.pdf', contentType: 'application/pdf' },
      ],
      rejected: v1.rejected,
      at: v1.at,
    });
  });

  it('a key uploaded under version 1 is a duplicate of the same key uploaded now', () => {
    const v1 = {
      offerId: 'o1',
      items: [{ itemId: 'i1', kind: 'text', fingerprint: hexOf('text\0KEY-1'), fileName: null, contentType: null }],
      rejected: [],
      at: '2026-01-05T10:00:00.000Z',
    };
    const state = inventoryDecider.evolve(
      inventoryDecider.initialState,
      versions.upcast(recorded(v1, 1)) as unknown as InventoryEvent,
    );
    const again = {
      itemId: 'i2',
      index: 0,
      kind: 'text' as const,
      fingerprint: fingerprint(key, 'text', 'KEY-1'),
      fileName: null,
      contentType: null,
      mask: '',
      size: null,
    };
    expect(() =>
      inventoryDecider.decide(
        {
          type: 'UploadInventory',
          data: { offerId: 'o1', mode: 'strict', items: [again], rejected: [], now: '2026-01-05T11:00:00.000Z' },
        },
        state,
      ),
    ).toThrow(expect.objectContaining({ code: 'inventory_rejected' }));
  });
});

describe('InventoryUploaded version 2 to 3', () => {
  const versions = new EventVersions(eventVersions);
  const recorded = (data: unknown, schemaVersion: number) => ({
    id: 'e1',
    streamId: 'inventory-o1',
    revision: 0,
    position: { commit: 1n, prepare: 1n },
    type: 'InventoryUploaded',
    data,
    metadata: {},
    schemaVersion,
    createdAt: new Date('2026-01-05T10:00:00.000Z'),
  });

  it('gives every key recorded before an unknown mask, every file an unknown size, and holds nothing', () => {
    const v2 = {
      offerId: 'o1',
      itemIds: ['i1', 'i2'],
      fingerprints: ['f1', 'f2'],
      files: [{ place: 1, fileName: 'a.png', contentType: 'image/png' }],
      rejected: [{ index: 2, code: 'duplicate_key', message: 'x' }],
      at: '2026-01-05T10:00:00.000Z',
    };
    const upcast = versions.upcast(recorded(v2, 2));
    expect(upcast.schemaVersion).toBe(3);
    expect(upcast.data).toEqual({
      offerId: 'o1',
      itemIds: ['i1', 'i2'],
      fingerprints: ['f1', 'f2'],
      masks: ['', ''],
      files: [{ place: 1, fileName: 'a.png', contentType: 'image/png', size: null }],
      held: [],
      rejected: v2.rejected,
      at: v2.at,
    });
  });

  it('a version 1 event runs through both steps', () => {
    const v1 = { offerId: 'o1', items: [], rejected: [], at: 'x' };
    expect(versions.upcast(recorded(v1, 1)).data).toEqual({
      offerId: 'o1',
      itemIds: [],
      fingerprints: [],
      masks: [],
      files: [],
      held: [],
      rejected: [],
      at: 'x',
    });
  });

  it('an event of version 3 is handed out as it is', () => {
    const v3 = recorded(
      { offerId: 'o1', itemIds: [], fingerprints: [], masks: [], files: [], held: [], rejected: [], at: 'x' },
      3,
    );
    expect(versions.upcast(v3)).toBe(v3);
  });
});

describe('ProductCreated version 1 to 2', () => {
  it('a product made before key formats takes any key', () => {
    expect(productCreatedV2({ productId: 'p1', name: 'N' })).toEqual({ productId: 'p1', name: 'N', keyFormat: null });
  });
});

describe('InventoryImportStarted version 1 to 2', () => {
  it('an import started before the chunk size was recorded goes on in chunks of 1,000', () => {
    expect(inventoryImportStartedV2({ importId: 'i1', keys: 2500 })).toEqual({
      importId: 'i1',
      keys: 2500,
      chunkSize: 1000,
    });
  });
});
