import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GC_TRACE_FLAGS, GcTrace } from '../../scripts/bench/gc-trace.ts';
import { freePort, spawnChild } from '../../scripts/bench/processes.ts';

const traceFile = () => join(mkdtempSync(join(tmpdir(), 'gc-trace-')), 'trace.txt');
const linesOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n') : []);

describe('GcTrace', () => {
  it('keeps what V8 prints of a process the bench spawns marking its old generation and collecting it, and nothing of its scavenges', async () => {
    const trace = new GcTrace(traceFile(), Date.now());
    const port = await freePort();
    // Once it listens, objects kept until the old generation passes its limit, so that V8 marks
    // and collects it as it would a gateway's: incrementally, started by the limit, not by gc().
    const program = `require('node:net').createServer().listen(${port}, '127.0.0.1', () => {
      const kept = []; for (let i = 0; i < 4e6; i++) kept.push({ i, s: String(i) });
    });`;
    const child = await spawnChild({
      name: 'child',
      args: ['-e', program],
      nodeFlags: GC_TRACE_FLAGS,
      env: {},
      port,
      tcpReady: true,
      onLine: (line) => trace.line('child', line),
    });
    try {
      for (let i = 0; i < 200 && !linesOf(trace.file).some((l) => l.includes('Mark-Compact')); i++) await sleep(50);
    } finally {
      await child.stop();
    }

    const lines = linesOf(trace.file);
    expect(lines.some((l) => /child: \d+ ms: \[IncrementalMarking\] Start \(.+\): .*v8: \d+MB/.test(l))).toBe(true);
    expect(lines.some((l) => /child: \d+ ms: Mark-Compact/.test(l))).toBe(true);
    expect(lines.every((l) => /^ +\d+\.\d\d s {2}child: /.test(l))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/Scavenge|Start marking|\[\d+:0x/);
  });

  it('writes the marks of the runs between the lines it keeps, each with its time', () => {
    const trace = new GcTrace(traceFile(), Date.now());
    trace.mark('me on redis, fixed-rate round 1');
    trace.line('redis', '[7:0x1a2b] 10 ms: Scavenge 1 -> 0 MB');
    trace.line('memory', '[8:0x3c4d]  5 ms: Mark-Compact 40.1 (60.0) -> 33.0 (55.0) MB');
    trace.mark('end');
    expect(linesOf(trace.file).map((l) => l.replace(/^ +\d+\.\d\d s {2}/, ''))).toEqual([
      '-- me on redis, fixed-rate round 1',
      'memory: 5 ms: Mark-Compact 40.1 (60.0) -> 33.0 (55.0) MB',
      '-- end',
    ]);
  });
});
