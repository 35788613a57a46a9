/**
 * The fuzz campaign of the public port, in every test run: at least 10,000 generated requests
 * over real HTTP (REST, MCP and raw sockets) against a gateway and the sandbox backend, every
 * answer checked against the OpenAPI document and the contract (see ./campaign.ts). The seed is
 * printed; FUZZ_SEED=<seed> replays a failing run, FUZZ_REQUESTS changes its size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.ts';
import { campaignSeed, runCampaign, type CampaignReport } from './campaign.ts';

const REQUESTS = Number(process.env['FUZZ_REQUESTS'] ?? 10_000);
const seed = campaignSeed();

let stack: Stack;
let report: CampaignReport;

beforeAll(async () => {
  // No rate limits and a generous failed-auth allowance: the campaign sends many bad keys from one address.
  // The open endpoints' per-address budgets are lifted too: the campaign sends them every method.
  stack = await startStack({
    env: {
      RATE_LIMITS: 'off',
      AUTH_ATTEMPTS_PER_MINUTE: 1_000_000,
      PUBLIC_REQUESTS_PER_MINUTE: 1_000_000,
      HEALTH_REQUESTS_PER_MINUTE: 1_000_000,
    },
  });
});
afterAll(async () => {
  await stack?.close();
});

describe(`fuzzing the public port (FUZZ_SEED=${seed})`, () => {
  it('answers every generated request with a documented success or the envelope, never a 5xx, and loses or doubles no write', async () => {
    console.log(`fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);
    report = await runCampaign({ stack, seed, requests: REQUESTS, concurrency: 6, faults: 60 });
    console.log(
      `fuzz: ${report.requests} requests in ${report.durationMs} ms; statuses ${JSON.stringify(report.statuses)}; writes ${JSON.stringify(report.writes)}`,
    );
    expect(report.violations, `seed ${seed}`).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(report.faultsSurvived).toBe(report.faultsInjected);
    // The campaign reaches both sides of the contract, not only refusals.
    expect(Object.keys(report.statuses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(report.writes.order.executed + report.writes.opinion.executed + report.writes.back.executed).toBeGreaterThan(0);
  }, 120_000);
});
