import { describe, expect, it } from 'vitest';
import type { StoreHistory, Witness } from '../../src/eventstore/port.js';
import { lineChange, rewindOf } from '../../src/eventstore/rewind.js';

const at = (commit: number, prepare: number) => ({ commit: BigInt(commit), prepare: BigInt(prepare) });
const seen: Witness = { id: '01JSEEN0000000000000000000', position: at(900, 40) };
const history = (
  head: [number, number],
  line?: { system?: string; database?: string; timeline?: number; wal?: number },
  witnessed?: boolean,
): StoreHistory => ({
  head: at(...head),
  ...(witnessed !== undefined && { witnessed }),
  ...(line && {
    line: {
      system: line.system ?? '7300000000000000001',
      database: line.database ?? '16384',
      timeline: line.timeline ?? 1,
      wal: BigInt(line.wal ?? 5000),
    },
  }),
});

describe('a store that went back in time, told from what the instance saw', () => {
  it('is no rewind while the event seen last is stored and the head is at or past it', () => {
    expect(rewindOf(seen, history([900, 40], {}), history([950, 41], { wal: 6000 }, true))).toBeUndefined();
    expect(rewindOf(undefined, undefined, history([0, 0], {}))).toBeUndefined();
  });

  it('is a rewind when the event seen last is no longer stored, even with a head far past it', () => {
    // a restore takes the transaction counter back: the new history's events soon pass the lost ones
    expect(rewindOf(seen, undefined, history([2000, 80], { timeline: 2 }, false))).toEqual({
      cause: 'witness_lost',
      detail: 'event 01JSEEN0000000000000000000 at 900/40, which this instance read or wrote, is no longer stored',
    });
  });

  it("is a rewind when the store's head is below what the instance saw", () => {
    expect(rewindOf(seen, undefined, history([899, 39]))).toEqual({
      cause: 'head_behind',
      detail: "the store's last event is at 899/39, below 900/40, which this instance read or wrote",
    });
  });

  it('is a rewind when a new system identifier or timeline comes with a lower position', () => {
    const before = history([900, 40], { system: '7300000000000000001', timeline: 1, wal: 9000 });
    expect(rewindOf(seen, before, history([850, 30], { system: '7400000000000000002', timeline: 1 }))?.cause).toBe(
      'head_behind',
    );
    expect(rewindOf(seen, before, history([850, 30], { timeline: 2, wal: 8000 }))?.cause).toBe('head_behind');
  });

  it('is no rewind when only the timeline changed and everything seen is there (a switchover, a synchronous failover)', () => {
    // the new primary's WAL may start below the old one's last flushed position (WAL of
    // transactions never acknowledged): not a loss of anything the instance saw
    const before = history([900, 40], { timeline: 3, wal: 9000 });
    expect(rewindOf(seen, before, history([900, 40], { timeline: 4, wal: 8800 }, true))).toBeUndefined();
  });

  it("is a rewind when the server's WAL goes back on the same system and timeline (its files put back)", () => {
    const before = history([900, 40], { timeline: 3, wal: 9000 });
    expect(rewindOf(undefined, before, history([900, 40], { timeline: 3, wal: 8999 }))).toEqual({
      cause: 'wal_behind',
      detail:
        "the database's WAL is flushed to byte 8999 of timeline 3, below byte 9000 it had flushed before: its files were put back to an earlier moment",
    });
    // another database in the place of the old one is another line: its WAL says nothing
    expect(
      rewindOf(undefined, before, history([900, 40], { database: '20001', timeline: 3, wal: 10 })),
    ).toBeUndefined();
    // a standby (no line) or the first reading decides nothing about the WAL
    expect(rewindOf(undefined, before, history([900, 40]))).toBeUndefined();
    expect(rewindOf(undefined, undefined, history([900, 40], { wal: 1 }))).toBeUndefined();
  });

  it('says a new system or timeline in words', () => {
    const before = history([1, 1], { system: '11', timeline: 1 });
    expect(lineChange(before, history([1, 1], { system: '11', timeline: 2 }))).toBe('database timeline 1 is now 2');
    expect(lineChange(before, history([1, 1], { system: '12', timeline: 1 }))).toBe('database system 11 is now 12');
    expect(lineChange(before, history([1, 1], { system: '11', database: '20001', timeline: 1 }))).toBe(
      'database oid 16384 is now 20001',
    );
    expect(lineChange(before, history([1, 1], { system: '11', timeline: 1, wal: 9 }))).toBeUndefined();
    expect(lineChange(undefined, before)).toBeUndefined();
  });
});
