/**
 * Run as a process of its own (`node --expose-gc --import tsx`): folds inventory states and
 * prints, per shape, what `heapBytesOf` reckons them at over the heap they hold. In a test
 * worker the heap also moves with what other files in the same worker free, so the reckoning
 * is measured on a heap that holds nothing else.
 */
import { heapBytesOf } from '../../src/commands/state-size.js';
import { type InventoryCommand, inventoryDecider, type InventoryState } from '../../src/domain/inventory.js';
import { newId } from '../../src/ids.js';

const now = '2026-01-05T10:00:00.000Z';

const commands = (offerId: string, keys: number): InventoryCommand[] => [
  {
    type: 'UploadInventory',
    data: {
      offerId,
      mode: 'strict',
      items: Array.from({ length: keys }, (_, i) => ({
        itemId: `${offerId}-i${i}`,
        index: i,
        kind: 'text' as const,
        fingerprint: `${offerId}-f${i}`,
        fileName: null,
        contentType: null,
        mask: 'AB••••1234',
        size: null,
      })),
      rejected: [],
      now,
    },
  },
  {
    type: 'ReserveItems',
    data: {
      offerId,
      orderId: `ord-${offerId}`,
      orderItemId: `${offerId}-oi`,
      quantity: 1,
      expiresAt: '2026-01-05T10:15:00.000Z',
      lowStockThreshold: 0,
      now,
    },
  },
];

const folded = (keys: number): InventoryState => {
  let state = inventoryDecider.initialState;
  for (const command of commands(newId(), keys))
    for (const e of inventoryDecider.decide(command, state)) state = inventoryDecider.evolve(state, e);
  return state;
};

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

/** The heap `count` states take, and what they are reckoned at: each count in a call of its own, so none outlives it. */
const ratio = (count: number, keys: number): number => {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const states = Array.from({ length: count }, () => folded(keys));
  gc();
  gc();
  const held = process.memoryUsage().heapUsed - before;
  return states.reduce((sum, s) => sum + heapBytesOf(s), 0) / held;
};

// one warm-up round, so that code compiled on first use is not counted as the states' heap
ratio(50, 3);
const shapes = process.argv.slice(2).map((arg) => arg.split('x').map(Number) as [number, number]);
process.stdout.write(JSON.stringify(shapes.map(([count, keys]) => ({ count, keys, ratio: ratio(count, keys) }))));
