/** The benchmark's per-process counters (scripts/bench/processes.ts). */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { peakRssMb, rssMb, systemCalls, warmUntilSettled } from '../../scripts/bench/processes.ts';

describe('systemCalls', () => {
  it('counts the read and write system calls the process makes', () => {
    const fd = openSync('/dev/null', 'r+');
    try {
      const before = systemCalls(process.pid);
      for (let i = 0; i < 200; i += 1) writeSync(fd, 'x');
      const afterWrites = systemCalls(process.pid);
      for (let i = 0; i < 300; i += 1) readSync(fd, Buffer.alloc(1));
      const afterReads = systemCalls(process.pid);
      // Other threads (the test runner's) may add a few of their own, never fewer.
      expect(afterWrites.writes - before.writes).toBeGreaterThanOrEqual(200);
      expect(afterWrites.writes - before.writes).toBeLessThan(260);
      expect(afterReads.reads - afterWrites.reads).toBeGreaterThanOrEqual(300);
      expect(afterReads.reads - afterWrites.reads).toBeLessThan(360);
    } finally {
      closeSync(fd);
    }
  });
});

describe('rssMb and peakRssMb', () => {
  it("read the process's resident memory now and at its peak, in MB", () => {
    const now = rssMb(process.pid);
    const reported = process.memoryUsage.rss() / 2 ** 20;
    expect(now).toBeGreaterThan(0.8 * reported);
    expect(now).toBeLessThan(1.25 * reported);
    expect(peakRssMb(process.pid)).toBeGreaterThanOrEqual(now);
  });
});

describe('warmUntilSettled', () => {
  const pass = () => new Promise<void>((resolve) => setTimeout(resolve, 200));

  it('stops as soon as the compilers are quiet', async () => {
    const w = await warmUntilSettled(process.pid, pass, Number.POSITIVE_INFINITY, 8);
    expect(w).toMatchObject({ passes: 1, settled: true });
  });

  it('stops unsettled at the pass limit', async () => {
    const w = await warmUntilSettled(process.pid, pass, -1, 3);
    expect(w).toMatchObject({ passes: 3, settled: false });
  });

  it('does not start a pass that would end past the time limit', async () => {
    // 0.2 s passes, 0.5 s in all: a second pass fits (0.4 s), a third would not (0.6 s).
    const w = await warmUntilSettled(process.pid, pass, -1, 8, 0.5);
    expect(w).toMatchObject({ passes: 2, settled: false });
    expect(w.seconds).toBeLessThan(0.5);
  });
});
