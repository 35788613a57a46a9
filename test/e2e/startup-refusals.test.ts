/**
 * Start-up refusals (src/config.ts, src/server.ts; docs/operations.md, "Start-up"): a production
 * process without a backend must not serve the sandbox and its public demo keys, and a backend
 * deadline longer than a pending confirm claim lives is refused, and so is any configuration
 * under which a whole class of requests would fail (a fleet without its shared secrets, an
 * admin server beyond loopback without a token), each with one line naming the variable.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, MAX_UPSTREAM_TIMEOUT_MS, loadConfig } from '../../src/config.ts';
import { PENDING_TTL_MS } from '../../src/confirm/execute-once.ts';
import { runGateway } from '../helpers/gateway-process.ts';

const problems = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('production without a backend', () => {
  it('refuses to start: non-zero exit, one line naming UPSTREAM_URL, no sandbox, no demo key', async () => {
    const r = await runGateway({ NODE_ENV: 'production' });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('UPSTREAM_URL');
    expect(lines[0]).toContain('NODE_ENV=production');
    expect(r.stdout).not.toContain('opk_');
    expect(r.stdout).not.toContain('sandbox');
  }, 30_000);

  it('is a configuration error, while the sandbox stays the default outside production', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^UPSTREAM_URL: required when NODE_ENV=production/)]);
    expect(problems({ NODE_ENV: 'production', UPSTREAM_URL: 'http://backend.internal:8000', UPSTREAM_SERVICE_TOKEN: 'x' })).toEqual([]);
    expect(problems({})).toEqual([]);
    expect(problems({ NODE_ENV: 'development' })).toEqual([]);
  });
});

describe('UPSTREAM_TIMEOUT_MS', () => {
  it('must end well inside the pending confirm claim', () => {
    expect(MAX_UPSTREAM_TIMEOUT_MS * 2).toBeLessThan(PENDING_TTL_MS);
    expect(problems({ UPSTREAM_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS) })).toEqual([]);
    expect(problems({ UPSTREAM_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS + 1) })).toEqual([
      expect.stringMatching(/^UPSTREAM_TIMEOUT_MS: must be at most 20000 ms/),
    ]);
    expect(problems({ UPSTREAM_TIMEOUT_MS: String(PENDING_TTL_MS) })).toHaveLength(1);
  });

  it('stops the process with one line naming it', async () => {
    const r = await runGateway({ UPSTREAM_TIMEOUT_MS: '600000' });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('UPSTREAM_TIMEOUT_MS')]);
  }, 30_000);
});

describe('a fleet without its shared secrets', () => {
  const fleet = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: 'openpm-test:startup-refusal:' };
  const confirm = `k1:${'c'.repeat(40)}`;

  it('names CONFIRM_KEYS and CURSOR_SECRET, each with why replicas must share it', () => {
    expect(problems(fleet)).toEqual([
      expect.stringMatching(/^CONFIRM_KEYS: required with REDIS_URL: replicas must share .*every write answers CONFIRM_UNAVAILABLE/),
      expect.stringMatching(/^CURSOR_SECRET: required with REDIS_URL \(or CURSOR_KEYS\): replicas must share .*refused by another/),
    ]);
    expect(problems({ ...fleet, CONFIRM_KEYS: confirm })).toEqual([expect.stringMatching(/^CURSOR_SECRET: required/)]);
    expect(problems({ ...fleet, CURSOR_SECRET: 'a-cursor-secret-of-some-length' })).toEqual([
      expect.stringMatching(/^CONFIRM_KEYS: required/),
    ]);
    expect(problems({ ...fleet, CONFIRM_KEYS: confirm, CURSOR_SECRET: 'a-cursor-secret-of-some-length' })).toEqual([]);
    expect(problems({ ...fleet, CONFIRM_KEYS: confirm, CURSOR_KEYS: `c1:${'k'.repeat(16)}` })).toEqual([]);
    // One process without Redis draws its own secrets, as before.
    expect(problems({})).toEqual([]);
  });

  it('stops the process at start with one line, before it listens', async () => {
    const r = await runGateway({ ...fleet, CURSOR_SECRET: 'a-cursor-secret-of-some-length' });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^invalid configuration: CONFIRM_KEYS: required with REDIS_URL/)]);
    expect(r.stdout).not.toContain('gateway listening');
  }, 30_000);
});

describe('an admin server beyond loopback without ADMIN_TOKEN', () => {
  it('is refused: the kill switch could not be changed at all', () => {
    expect(problems({ ADMIN_HOST: '0.0.0.0' })).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN: required when ADMIN_HOST \(0\.0\.0\.0\) is not a loopback address/),
    ]);
    expect(problems({ ADMIN_HOST: '0.0.0.0', ADMIN_TOKEN: 'an-admin-token-0123456789' })).toEqual([]);
    expect(problems({ ADMIN_HOST: '::1' })).toEqual([]);
  });
});

describe('rotatable secrets', () => {
  it('accept a list while rotating, and refuse a malformed one naming the variable, never the value', () => {
    expect(problems({ ADMIN_TOKEN: 'new-admin-token-0123456789,old-admin-token-0123456789' })).toEqual([]);
    expect(problems({ ADMIN_TOKEN: 'new-admin-token-0123456789,short' })).toEqual([expect.stringMatching(/^ADMIN_TOKEN: /)]);
    expect(problems({ CURSOR_KEYS: `c1:${'k'.repeat(16)},c2:${'j'.repeat(16)}`, CURSOR_SIGNING_KID: 'c2' })).toEqual([]);
    expect(problems({ CURSOR_KEYS: `c1:${'k'.repeat(16)}`, CURSOR_SIGNING_KID: 'c2' })).toEqual([
      'CURSOR_KEYS: CURSOR_SIGNING_KID names no key of CURSOR_KEYS',
    ]);
    expect(problems({ CURSOR_KEYS: 'c1:short-secret' })).toEqual([
      'CURSOR_KEYS: CURSOR_KEYS entries must be <kid>:<secret of 16+ characters>',
    ]);
    expect(problems({ CURSOR_KEYS: `c1:${'k'.repeat(16)}`, CURSOR_SECRET: 'a-cursor-secret-of-some-length' })).toEqual([
      'CURSOR_KEYS: set CURSOR_KEYS or CURSOR_SECRET, not both',
    ]);
    expect(problems({ CONFIRM_KEYS: `k1:${'a'.repeat(32)},k1:${'b'.repeat(32)}` })).toEqual([
      'CONFIRM_KEYS: CONFIRM_KEYS names the key id k1 twice',
    ]);
  });
});
