/**
 * The process and runtime metrics: prom-client's default families, all of them, with the
 * garbage collector's durations from our own `gc` observer (src/metrics/runtime.ts).
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRuntimeMetrics } from '../../src/metrics/runtime.ts';
import { collectGarbage as collect, eventually } from '../helpers/gc.ts';

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** `# HELP` and `# TYPE` lines: each family's name, help text and type. */
function families(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('# '))
    .sort();
}

const registry = new Registry();
const stop = collectRuntimeMetrics(registry);
afterAll(() => stop());

describe('runtime metrics', () => {
  it("are prom-client's default families, with the same names, help and types", async () => {
    const theirs = new Registry();
    collectDefaultMetrics({ register: theirs });
    // Both hold every family from the start, the GC histogram included (empty until a collection).
    expect(families(await registry.metrics())).toEqual(families(await theirs.metrics()));
    expect(families(await registry.metrics())).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('count every collection by kind, also those that come together', async () => {
    const count = (text: string, kind: string) => sample(text, `nodejs_gc_duration_seconds_count{kind="${kind}"}`);
    const before = await registry.metrics();
    // Back to back, so Node hands the observer several entries in one call (prom-client's own
    // collector counts only the first of them).
    collect('major');
    collect('major');
    collect('minor');
    const after = await eventually(
      () => registry.metrics(),
      (t) => count(t, 'major') - count(before, 'major') >= 2 && count(t, 'minor') > count(before, 'minor'),
    );
    expect(count(after, 'major') - count(before, 'major')).toBe(2);
    expect(count(after, 'minor') - count(before, 'minor')).toBeGreaterThanOrEqual(1);
    // Durations in seconds: a forced full collection of this heap takes well under a second.
    const sum =
      sample(after, 'nodejs_gc_duration_seconds_sum{kind="major"}') - sample(before, 'nodejs_gc_duration_seconds_sum{kind="major"}');
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(2);
  });

  it('stop recording once stopped', async () => {
    const own = new Registry();
    const stopOwn = collectRuntimeMetrics(own);
    const majors = (text: string) => sample(text, 'nodejs_gc_duration_seconds_count{kind="major"}');
    collect('major');
    const atStop = majors(
      await eventually(
        () => own.metrics(),
        (t) => majors(t) >= 1,
      ),
    );
    expect(atStop).toBe(1);
    stopOwn();
    collect('major');
    // Long enough for an observer still connected to have heard of it (the wait above is far shorter).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(majors(await own.metrics())).toBe(atStop);
  });
});
