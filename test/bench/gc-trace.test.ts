import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GC_TRACE_FLAGS, GcTrace, gcTraceMode } from '../../scripts/bench/gc-trace.ts';
import { freePort, spawnChild } from '../../scripts/bench/processes.ts';

const traceFile = () => join(mkdtempSync(join(tmpdir(), 'gc-trace-')), 'trace.txt');
const linesOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n') : []);

/**
 * Runs `work` as the top-level code of a child the bench spawns with the trace's flags, then
 * has it listen (the bench's readiness check) and exit a second later; waits until `until`
 * holds of the child's output so far or 15 s pass, and returns that output. V8 prints to the pipe through C's buffer, so its last lines reach the
 * trace when the child exits, not when it is killed.
 */
async function traceChild(trace: GcTrace, work: string, until: (raw: readonly string[]) => boolean): Promise<string[]> {
  const raw: string[] = [];
  const port = await freePort();
  const child = await spawnChild({
    name: 'child',
    args: [
      '-e',
      `${work}; require('node:net').createServer().listen(${port}, '127.0.0.1', () => setTimeout(() => process.exit(0), 1000));`,
    ],
    nodeFlags: GC_TRACE_FLAGS[trace.mode],
    env: {},
    port,
    tcpReady: true,
    onLine: (line) => {
      raw.push(line);
      trace.line('child', line);
    },
  });
  try {
    for (let i = 0; i < 300 && !until(raw); i++) await sleep(50);
  } finally {
    await child.stop();
  }
  return raw;
}

describe('GcTrace', () => {
  it('keeps what V8 prints of a process the bench spawns marking its old generation and collecting it, and nothing of its scavenges', async () => {
    const trace = new GcTrace(traceFile(), Date.now());
    // Objects kept until the old generation passes its limit, so that V8 marks and collects it
    // as it would a gateway's: incrementally, started by the limit, not by gc().
    await traceChild(trace, 'const kept = []; for (let i = 0; i < 4e6; i++) kept.push({ i, s: String(i) });', () =>
      linesOf(trace.file).some((l) => l.includes('Mark-Compact')),
    );

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

  it('in promotion mode makes V8 print its pretenuring, and keeps each collection cut to what moved, totalled from the first mark', async () => {
    const trace = new GcTrace(traceFile(), Date.now(), 'promotion');
    // Objects from two allocation sites kept in bulk, most of them outliving a scavenge. Whether
    // V8 then tenures a site depends on when it optimises the loop, which a loaded machine
    // moves; that it prints its pretenuring statistics, and how a decision is read (the table
    // test below), do not.
    const work = `const kept = []; const mk = (i) => ({ a: i, b: [i, i + 1] });
      for (let r = 0; r < 40; r++) { for (let i = 0; i < 200000; i++) kept.push(mk(i)); if (kept.length > 2e6) kept.length = 0; }`;
    trace.mark('the load');
    const raw = await traceChild(
      trace,
      work,
      (out) => out.some((l) => l.includes('pretenuring: threshold=')) && out.some((l) => l.includes(' gc=s ')),
    );

    // `--trace-pretenuring` alone would print none of these.
    expect(raw.some((l) => /pretenuring: threshold=[\d.]+ .*visited_sites=\d+/.test(l))).toBe(true);
    const lines = linesOf(trace.file);
    expect(
      lines.some((l) => /child: \d+ ms: gc=s reduce_memory=0 pause=[\d.]+ allocated=\d+ promoted=\d+ new_space_survived=\d+/.test(l)),
    ).toBe(true);
    // Every pretenuring line kept is a site entering or leaving tenure; the per-scavenge summaries are not kept.
    expect(
      lines.filter((l) => l.includes('pretenuring:')).every((l) => /AllocationSite\(0x[0-9a-f]+\): .*(=> tenure|tenure => .+)$/.test(l)),
    ).toBe(true);
    expect(lines.join('\n')).not.toMatch(/scavenge\.roots|undecided => maybe tenure|threshold=|\[\d+:0x/);
    const totals = trace.totals().get('child');
    expect(totals?.scavenges).toBe(lines.filter((l) => / gc=s /.test(l)).length);
    expect(totals?.promotedBytes).toBeGreaterThan(0);
    expect(totals?.tenured).toBe(lines.filter((l) => l.endsWith('=> tenure')).length);
  });

  it('counts nothing before the first mark (the warm-up), and a site leaving tenure as untenured', () => {
    const trace = new GcTrace(traceFile(), Date.now(), 'promotion');
    const scavenge = '[7:0x1a2b:0]  10 ms: pause=0.5 mutator=9 gc=s reduce_memory=0 allocated=100 promoted=4000 new_space_survived=10';
    const site = (change: string) => `[7:0x1a2b] pretenuring: AllocationSite(0xabc): (created, found, ratio) (10, 9, 0.9) ${change}`;
    trace.line('redis', scavenge);
    trace.line('redis', site('maybe tenure => tenure'));
    trace.mark('me on redis, saturation round 1');
    trace.line('redis', scavenge);
    trace.line('redis', scavenge);
    trace.line('redis', '[7:0x1a2b:0]  90 ms: pause=20 mutator=9 gc=mc reduce_memory=0 allocated=0 promoted=0');
    trace.line('redis', site('maybe tenure => tenure'));
    trace.line('redis', site("tenure => don't tenure"));
    trace.line('redis', site('undecided => maybe tenure'));
    expect(trace.totals().get('redis')).toEqual({ scavenges: 2, fullCollections: 1, promotedBytes: 8000, tenured: 1, untenured: 1 });
    expect(linesOf(trace.file).filter((l) => l.includes('AllocationSite'))).toHaveLength(3);
  });

  it('reads BENCH_GC_TRACE: 1 as the full collections, promotion as promotion, anything else as none', () => {
    expect([gcTraceMode('1'), gcTraceMode('collections'), gcTraceMode('promotion'), gcTraceMode(undefined), gcTraceMode('0')]).toEqual([
      'collections',
      'collections',
      'promotion',
      undefined,
      undefined,
    ]);
  });
});
