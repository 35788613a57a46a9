/**
 * The fuzz campaign over the public port: the requests of ./cases.ts, sent and checked by
 * ./runner.ts over real HTTP, then a phase where the backend is made to fail, then the writes
 * the sandbox performed compared with the executions answered.
 *
 * The sequence of requests is a pure function of the seed: a failure replays with FUZZ_SEED.
 */
import fc from 'fast-check';
import { KEYS, type Stack } from '../helpers/stack.ts';
import { V1, caseArbitrary, operationsFromDocument, wellFormedCase } from './cases.ts';
import { Runner, type WriteTally } from './runner.ts';

export interface CampaignOptions {
  stack: Stack;
  seed: number;
  requests: number;
  concurrency: number;
  /** Backend faults injected in a final phase, each answered once. */
  faults?: number;
}

export interface CampaignReport {
  seed: number;
  requests: number;
  durationMs: number;
  statuses: Record<string, number>;
  byKind: Record<string, number>;
  violations: string[];
  /** Requests that took over a second (the first ten), to see what slows a run down. */
  slow: string[];
  faultsInjected: number;
  faultsSurvived: number;
  writes: WriteTally;
}

async function pool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i] as T, i);
    }
  });
  await Promise.all(lanes);
}

/** Runs the campaign; the stack must have rate limits off. */
export async function runCampaign(opts: CampaignOptions): Promise<CampaignReport> {
  const { doc, infos } = operationsFromDocument();
  const runner = new Runner(opts.stack);
  runner.infos = infos;
  const cases = fc.sample(caseArbitrary(doc, infos), { seed: opts.seed, numRuns: opts.requests });
  const before = (await opts.stack.admin('GET', '/counters')) as { performed: Record<string, number>; replayed: Record<string, number> };
  const started = performance.now();
  const watchdog =
    process.env['FUZZ_DEBUG'] === undefined
      ? undefined
      : setInterval(() => {
          console.error(
            `fuzz: ${runner.requests} answered; pending ${[...runner.pending.entries()].map(([i, c]) => `#${i} ${JSON.stringify({ ...c, info: undefined }).slice(0, 300)}`).join(' | ')}`,
          );
        }, 5000);
  try {
    await pool(cases, opts.concurrency, (c, i) => runner.run(i, c));

    // Backend faults: the backend answers errors, garbage or nothing useful. The gateway must
    // answer every request in the envelope and keep serving; writes are not fuzzed here.
    let injected = 0;
    let survived = 0;
    if ((opts.faults ?? 0) > 0) {
      runner.faultMode = true;
      const shapes = [
        { status: 500, body: { errCode: 50000, errMsg: 'boom' } },
        { status: 200, body: 'not json at all' },
        { status: 200, body: { errCode: 0, data: { unexpected: true } } },
        { status: 502, body: '<html>bad gateway</html>' },
        { status: 200, body: { errCode: 99999, errMsg: 'unknown' } },
      ];
      const faultCases = fc.sample(fc.oneof(...infos.filter((i) => i.op.kind !== 'execute').map((i) => wellFormedCase(doc, i))), {
        seed: opts.seed + 1,
        numRuns: opts.faults ?? 0,
      });
      await pool(faultCases, 1, async (c, i) => {
        const shape = shapes[i % shapes.length] ?? shapes[0];
        const f = opts.stack.sandbox.faults.add({ method: '*', pathPrefix: '/', times: 1, phase: 'before', ...shape });
        const seen = runner.violations.length;
        await runner.run(opts.requests + i, c);
        opts.stack.sandbox.faults.clear();
        // Only a fault the gateway actually met counts; it is survived when the answer passed every check.
        if (f.remaining > 0) return;
        injected++;
        if (runner.violations.length === seen) survived++;
      });
      runner.faultMode = false;
      // Still serving after the faults: at once, or once an open circuit breaker lets a probe
      // through again (its cooldown is 5 s by default).
      let health = await runner.http('GET', `${V1}/me`, { authorization: `Bearer ${KEYS.aliceRead}` }, undefined);
      for (let i = 0; i < 16 && health.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 500));
        health = await runner.http('GET', `${V1}/me`, { authorization: `Bearer ${KEYS.aliceRead}` }, undefined);
      }
      if (health.status !== 200) runner.violations.push(`after the faults, GET /me answered ${health.status}`);
    }

    const after = (await opts.stack.admin('GET', '/counters')) as typeof before;
    for (const action of ['order', 'opinion', 'back'] as const) {
      const t = runner.writes[action];
      t.performed = (after.performed[action] ?? 0) - (before.performed[action] ?? 0);
      t.replayedByBackend = (after.replayed[action] ?? 0) - (before.replayed[action] ?? 0);
      // Every execution answered 201 is one write performed, and none performed went unanswered.
      if (t.performed !== t.executed)
        runner.violations.push(`${action}: ${t.executed} executions answered 201, ${t.performed} writes performed`);
    }
    return {
      seed: opts.seed,
      requests: runner.requests,
      durationMs: Math.round(performance.now() - started),
      statuses: Object.fromEntries(Object.entries(runner.statuses).sort(([a], [b]) => a.localeCompare(b))),
      byKind: runner.byKind,
      violations: runner.violations,
      slow: runner.slow,
      faultsInjected: injected,
      faultsSurvived: survived,
      writes: runner.writes,
    };
  } finally {
    clearInterval(watchdog);
    await runner.close();
  }
}

/** The seed CI runs with, so every run sends the same requests; FUZZ_SEED explores or replays others. */
export const DEFAULT_SEED = 20_261_123;

/** The seed of this run: FUZZ_SEED when set, else DEFAULT_SEED. */
export function campaignSeed(env: NodeJS.ProcessEnv = process.env): number {
  const fixed = env['FUZZ_SEED'];
  if (fixed !== undefined && fixed !== '') {
    const n = Number(fixed);
    if (!Number.isSafeInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${fixed}`);
    return n;
  }
  return DEFAULT_SEED;
}
