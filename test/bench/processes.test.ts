/** The benchmark's per-process counters (scripts/bench/processes.ts). */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { systemCalls } from '../../scripts/bench/processes.ts';

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
