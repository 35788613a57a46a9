/**
 * Two gateways in front of one held backend (./held-backend.ts): `short` with the deadline a test
 * gives, `patient` with the longest the configuration allows (as long as a test may run). While
 * the backend holds a request, an answer from `short` can only come from its own deadline (or
 * breaker), and `patient`'s request, held alike, shows the backend never answered: the suites
 * prove timeouts by the order of events, not by reading a clock.
 */
import type { Sandbox } from '../../sandbox/index.ts';
import { MAX_UPSTREAM_TIMEOUT_MS } from '../../src/config.ts';
import { type HeldBackend, startHeldBackend } from './held-backend.ts';
import { KEYS, type Stack, type StackOptions, startStack } from './stack.ts';

export interface DeadlinePair {
  backend: HeldBackend;
  short: Stack;
  patient: Stack;
  close(): Promise<void>;
}

/**
 * Starts both gateways with `env` (UPSTREAM_URL set to the held backend) and makes one owner
 * read through each, so that key checks are cached before any test holds the backend.
 */
export async function startDeadlinePair(sandbox: Sandbox, timeoutMs: number, env: StackOptions['env'] = {}): Promise<DeadlinePair> {
  const backend = await startHeldBackend(sandbox.url);
  const base = { ...env, UPSTREAM_URL: backend.url };
  const short = await startStack({ sandbox, env: { ...base, UPSTREAM_TIMEOUT_MS: timeoutMs } });
  const patient = await startStack({ sandbox, env: { ...base, UPSTREAM_TIMEOUT_MS: MAX_UPSTREAM_TIMEOUT_MS } });
  for (const s of [short, patient]) {
    const warm = await s.get('/open/v1/me', KEYS.aliceRead);
    if (warm.status !== 200) throw new Error(`gateway not ready: ${warm.status} ${JSON.stringify(warm.body)}`);
  }
  return {
    backend,
    short,
    patient,
    async close() {
      await short.close();
      await patient.close();
      await backend.close();
    },
  };
}
