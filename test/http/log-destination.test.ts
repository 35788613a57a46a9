/**
 * The default log destination writes each line when it is logged (src/http/logging.ts): a
 * process whose event loop is held up right after logging has its lines on stdout already.
 * Pino's default destination would leave every line after the first waiting for the loop.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from '../helpers/gateway-process.ts';

/** The child's exit code when it was never released (a backstop: the test's timeout fails first). */
const NEVER_RELEASED = 3;

/**
 * Logs three lines, then holds its event loop (synchronously, never yielding) until `release`
 * exists. The parent creates it only once it has read all three lines, so the child exits only
 * if they reached stdout while its loop was held.
 */
const script = (release: string) => `
import { existsSync } from 'node:fs';
import Fastify from 'fastify';
import { loggerOptions } from './src/http/logging.ts';
const app = Fastify({ logger: loggerOptions({ LOG_LEVEL: 'info' }) });
app.log.info('first line');
app.log.info('second line');
app.log.info('third line');
const nap = new Int32Array(new SharedArrayBuffer(4));
const giveUpAt = Date.now() + 120_000;
while (!existsSync(${JSON.stringify(release)})) {
  if (Date.now() > giveUpAt) process.exit(${NEVER_RELEASED});
  Atomics.wait(nap, 0, 0, 10);
}
`;

describe('default log destination', () => {
  it('puts every line on stdout while the event loop is held up after logging it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
    const release = join(dir, 'release');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script(release)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Also after a timeout, when the child may still be waiting for its release.
    onTestFinished(() => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const arrived: string[] = [];
    let stderr = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) arrived.push((JSON.parse(line) as { msg: string }).msg);
      // Every line is here while the child still holds its loop: only now may it go on.
      if (arrived.length === 3) writeFileSync(release, '');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });

    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(arrived).toEqual(['first line', 'second line', 'third line']);
  });
});
