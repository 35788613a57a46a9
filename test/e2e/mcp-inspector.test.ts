/**
 * The MCP Inspector CLI, a client nobody here wrote, against the gateway as `npm start` runs it
 * (scripts/inspector-check.sh): tool lists by scope, 0 schema portability findings, a tool call,
 * a tool error, and a bad key reported with the gateway's own message.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

describe('the MCP Inspector CLI on a 2025 revision', () => {
  it('passes scripts/inspector-check.sh', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const { stdout } = await run('bash', ['scripts/inspector-check.sh'], {
      env: { ...process.env, INSPECTOR_CHECK_PORT: String(port) },
      timeout: 110_000,
    });
    expect(stdout).toContain('read key sees 12 tools, read+write key sees 18 tools');
    expect(stdout).toContain('schema portability: 0 errors, 0 warnings across 18 tools');
    expect(stdout).toContain("a bad key is reported with the gateway's message");
    expect(stdout).toContain('inspector-check: ok');
  });
});
