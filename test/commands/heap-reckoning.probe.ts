/**
 * Run as a process of its own (`node --expose-gc --import tsx`): folds inventory states and
 * prints, per shape, what `heapBytesOf` reckons them at over the heap they hold. In a test
 * worker the heap also moves with what other files in the same worker free, so the reckoning
 * is measured on a heap that holds nothing else.
 */
import { heapBytesOf } from '../../src/commands/state-size.js';
import { folded } from './folded-inventory.js';

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
