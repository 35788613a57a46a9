import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GC_TRACE_FLAGS, GcTrace } from '../../scripts/bench/gc-trace.ts';

const traceFile = () => join(mkdtempSync(join(tmpdir(), 'gc-trace-')), 'trace.txt');

describe('GcTrace', () => {
  it('keeps what V8 prints of a real process marking its old generation and collecting it, and nothing of its scavenges', async () => {
    const trace = new GcTrace(traceFile(), Date.now());
    // Objects kept until the old generation passes its limit, so that V8 marks and collects it
    // as it would a gateway's: incrementally, started by the limit, not by a gc() call.
    const program = 'const kept = []; for (let i = 0; i < 4e6; i++) kept.push({ i, s: String(i) });';
    const child = spawn(process.execPath, [...GC_TRACE_FLAGS, '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
    let raw = '';
    child.stdout.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
      trace.output('child', chunk.toString());
    });
    await new Promise((resolve) => child.once('close', resolve));

    const lines = readFileSync(trace.file, 'utf8').trimEnd().split('\n');
    expect(raw).toMatch(/Scavenge/);
    expect(lines.some((l) => /child: \d+ ms: \[IncrementalMarking\] Start \(.+\): .*v8: \d+MB/.test(l))).toBe(true);
    expect(lines.some((l) => /child: \d+ ms: Mark-Compact/.test(l))).toBe(true);
    expect(lines.every((l) => /^ +\d+\.\d\d s {2}child: /.test(l))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/Scavenge|Start marking|\[\d+:0x/);
  });

  it('puts a line split across output chunks back together, and marks the runs between', () => {
    const trace = new GcTrace(traceFile(), Date.now());
    trace.mark('me on redis, fixed-rate round 1');
    trace.output('redis', '[7:0x1a2b] 10 ms: Scavenge 1 -> 0 MB\n[7:0x1a2b] 20 ms: Mark-Co');
    trace.output('memory', '[8:0x3c4d]  5 ms: Mark-Compact 40.1 (60.0) -> 33.0 (55.0) MB\n');
    trace.output('redis', 'mpact 41.0 (62.0) -> 34.0 (56.0) MB\n');
    trace.mark('end');
    const lines = readFileSync(trace.file, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => l.replace(/^ +\d+\.\d\d s {2}/, ''))).toEqual([
      '-- me on redis, fixed-rate round 1',
      'memory: 5 ms: Mark-Compact 40.1 (60.0) -> 33.0 (55.0) MB',
      'redis: 20 ms: Mark-Compact 41.0 (62.0) -> 34.0 (56.0) MB',
      '-- end',
    ]);
  });
});
