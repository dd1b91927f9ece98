import { describe, expect, it } from 'vitest';
import type { Line, StoreHistory, Witness } from '../../src/eventstore/port.js';
import type { Rewind } from '../../src/eventstore/rewind.js';
import { RewindWatch } from '../../src/eventstore/rewind-watch.js';

const at = (commit: number, prepare: number) => ({ commit: BigInt(commit), prepare: BigInt(prepare) });
const line = (timeline: number, wal: number): Line => ({
  system: '7300',
  database: '16384',
  timeline,
  wal: BigInt(wal),
});

/**
 * The watch's decisions against a store given as the events it holds and its line (the
 * store's own answers are the conformance suite's): what it asks about, and when it tells.
 */
const storeOf = (held: Witness[], current: () => Line) => {
  const asked: (string | undefined)[] = [];
  const history = async (witness?: Witness): Promise<StoreHistory> => {
    asked.push(witness?.id);
    const head = held.reduce((h, w) => (w.position.commit > h.commit ? w.position : h), at(0, 0));
    return {
      head,
      ...(witness && { witnessed: held.some((w) => w.id === witness.id) }),
      line: current(),
    };
  };
  return { history, asked };
};

const watchOver = (history: (witness?: Witness) => Promise<StoreHistory>) => {
  const rewinds: Rewind[] = [];
  const watch = new RewindWatch(
    history,
    () => new Date('2026-01-05T10:00:00Z'),
    (r) => rewinds.push(r),
    {
      warn: () => undefined,
    },
  );
  return { watch, rewinds };
};

describe('the rewind watch', () => {
  const lost: Witness = { id: 'lost', position: at(900, 40) };
  const kept: Witness = { id: 'kept', position: at(800, 30) };
  const after: Witness = { id: 'after', position: at(950, 50) };

  it('asks about the highest event seen, and tells a rewind once it is gone', async () => {
    let current = line(1, 5000);
    const held = [kept, lost];
    const store = storeOf(held, () => current);
    const { watch, rewinds } = watchOver(store.history);
    watch.saw(kept);
    watch.saw(lost);
    expect(await watch.probe()).toBeUndefined();
    held.pop(); // a failover that lost it
    current = line(2, 4000);
    expect((await watch.probe())?.cause).toBe('witness_lost');
    expect(store.asked).toEqual(['lost', 'lost']);
    expect(rewinds.map((r) => r.cause)).toEqual(['witness_lost']);
  });

  it('keeps what it sees on a new line apart until what it saw before is found stored', async () => {
    let current = line(1, 5000);
    const held = [kept, lost];
    const store = storeOf(held, () => current);
    const { watch, rewinds } = watchOver(store.history);
    watch.saw(lost);
    expect(await watch.probe()).toBeUndefined();
    // a failover loses `lost`; the new primary's first connection shows its timeline, and
    // an event of the new history already above the lost one's position is read there
    held.pop();
    held.push(after);
    current = line(2, 4800);
    watch.lineSeen(current);
    watch.saw(after);
    expect((await watch.probe())?.cause).toBe('witness_lost');
    expect(store.asked).toEqual(['lost', 'lost']);
    expect(rewinds).toHaveLength(1);
  });

  it('lets a new line stand once what was seen before is there (a switchover): the next probe asks about the highest since', async () => {
    let current = line(3, 9000);
    const store = storeOf([kept, lost, after], () => current);
    const { watch, rewinds } = watchOver(store.history);
    watch.saw(lost);
    expect(await watch.probe()).toBeUndefined();
    current = line(4, 8900);
    watch.lineSeen(current);
    watch.saw(after);
    expect(await watch.probe()).toBeUndefined();
    expect(await watch.probe()).toBeUndefined();
    expect(store.asked).toEqual(['lost', 'lost', 'after']);
    expect(rewinds).toEqual([]);
  });

  it('holds too when the same line is seen with its WAL behind (its files put back), and not when it only grew', async () => {
    let current = line(1, 5000);
    const store = storeOf([kept, lost, after], () => current);
    const { watch } = watchOver(store.history);
    watch.saw(lost);
    expect(await watch.probe()).toBeUndefined();
    current = line(1, 6000);
    watch.lineSeen(current);
    watch.saw(after);
    expect(await watch.probe()).toBeUndefined();
    current = line(1, 5500);
    watch.lineSeen(current);
    watch.saw({ id: 'later', position: at(990, 60) });
    expect((await watch.probe())?.cause).toBe('wal_behind');
    expect(store.asked).toEqual(['lost', 'after', 'after']);
  });
});
