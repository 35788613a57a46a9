/**
 * The runtime metrics must not make the process grow outside the JS heap as collections come.
 * V8's GC profiler, once used for the GC histogram, kept writing every collection into native
 * memory for each profiler ever started until a full collection freed it, so a replica grew
 * faster the longer it went without one (docs/performance.md, change 23).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MB = 1024 * 1024;
const child = fileURLToPath(new URL('./fixtures/scrape-through-collections.ts', import.meta.url));

describe('runtime metrics', () => {
  it('leave the process flat outside the JS heap through many scrapes and scavenges', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--max-semi-space-size=1', child, '300'], { encoding: 'utf8' });
    const grown = Number(out.trim());
    expect(Number.isFinite(grown)).toBe(true);
    // Measured: 0-6 MB; with change 20's code (a GC profiler swapped at each scrape), 149-159 MB.
    expect(grown).toBeLessThan(64 * MB);
  });
});
