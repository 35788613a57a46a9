/**
 * The default log destination writes each line when it is logged (src/http/logging.ts): a
 * process whose event loop is held up right after logging has its lines on stdout already.
 * Pino's default destination would leave every line after the first waiting for the loop.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/gateway-process.ts';

const HOLD_MS = 2_000;

const script = `
import Fastify from 'fastify';
import { loggerOptions } from './src/http/logging.ts';
const app = Fastify({ logger: loggerOptions({ LOG_LEVEL: 'info' }) });
app.log.info('first line');
app.log.info('second line');
app.log.info('third line');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${HOLD_MS});
`;

describe('default log destination', () => {
  it('puts every line on stdout while the event loop is held up after logging it', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const arrived = new Map<string, number>();
    let stderr = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) arrived.set((JSON.parse(line) as { msg: string }).msg, performance.now());
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exitedAt = await new Promise<number>((resolve) => child.once('exit', () => resolve(performance.now())));

    expect(stderr).toBe('');
    expect([...arrived.keys()]).toEqual(['first line', 'second line', 'third line']);
    // Each line arrived while the child still held its loop, long before it exited.
    for (const [msg, at] of arrived) expect(exitedAt - at, msg).toBeGreaterThan(HOLD_MS / 2);
  });
});
