import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigSchema, MAX_UPSTREAM_TIMEOUT_MS, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has working defaults: the embedded sandbox, no Redis', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ HOST: '127.0.0.1', PORT: 8080, KILL_SWITCH: 'off', KEY_CACHE_TTL_SECONDS: 60 });
    expect(c.UPSTREAM_URL).toBeUndefined();
    expect(c.REDIS_URL).toBeUndefined();
  });

  it('treats empty strings as unset for optional URLs', () => {
    expect(loadConfig({ REDIS_URL: '', UPSTREAM_URL: ' ' }).REDIS_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ KEY_CACHE_TTL_SECONDS: '61' }, 'KEY_CACHE_TTL_SECONDS'],
    [{ UPSTREAM_URL: 'http://backend:9000' }, 'UPSTREAM_SERVICE_TOKEN'],
    [{ KILL_SWITCH: 'maybe' }, 'KILL_SWITCH'],
    [{ RATE_LIMITS: 'yes' }, 'RATE_LIMITS'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ MCP_ALLOWED_ORIGINS: 'https://ok.example, agent.example' }, 'MCP_ALLOWED_ORIGINS'],
    [{ MCP_CLIENT_CONFIRMATION: 'ask' }, 'MCP_CLIENT_CONFIRMATION'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  // A Helm values file is YAML 1.1: an unquoted `KILL_SWITCH: on` arrives as "true".
  it.each([
    ['on', 'on'],
    ['true', 'on'],
    ['off', 'off'],
    ['false', 'off'],
  ])('reads the on/off switches %s as %s', (given, read) => {
    const c = loadConfig({ KILL_SWITCH: given, RATE_LIMITS: given, REDIS_SENTINEL_TLS: given });
    expect([c.KILL_SWITCH, c.RATE_LIMITS, c.REDIS_SENTINEL_TLS]).toEqual([read, read, read]);
  });

  it('never echoes a secret value in its error', () => {
    try {
      loadConfig({ CURSOR_SECRET: 'short-secret' });
      throw new Error('expected failure');
    } catch (err) {
      expect((err as Error).message).toContain('CURSOR_SECRET');
      expect((err as Error).message).not.toContain('short-secret');
    }
  });

  it('documents every variable in the README table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const keys = Object.keys(ConfigSchema.shape);
    const missing = keys.filter((k) => !readme.includes(`| \`${k}\` |`));
    expect(missing).toEqual([]);
  });
});

describe('UPSTREAM_TIMEOUT_MS', () => {
  it('is accepted up to the bound that keeps a write inside its pending claim, and refused past it', () => {
    expect(loadConfig({ UPSTREAM_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS) }).UPSTREAM_TIMEOUT_MS).toBe(MAX_UPSTREAM_TIMEOUT_MS);
    expect(() => loadConfig({ UPSTREAM_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS + 1) })).toThrow(ConfigError);
    expect(() => loadConfig({ UPSTREAM_TIMEOUT_MS: String(MAX_UPSTREAM_TIMEOUT_MS + 1) })).toThrow(/UPSTREAM_TIMEOUT_MS/);
  });
});

describe('MCP_CLIENT_CONFIRMATION', () => {
  it('is on by default, and turned off with off (or false, as YAML 1.1 writes an unquoted off)', () => {
    expect(loadConfig({}).MCP_CLIENT_CONFIRMATION).toBe('on');
    expect(loadConfig({ MCP_CLIENT_CONFIRMATION: 'off' }).MCP_CLIENT_CONFIRMATION).toBe('off');
    expect(loadConfig({ MCP_CLIENT_CONFIRMATION: 'false' }).MCP_CLIENT_CONFIRMATION).toBe('off');
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  it('reads a comma-separated list of origins, normalised, and nothing by default', () => {
    expect(loadConfig({}).MCP_ALLOWED_ORIGINS).toEqual(new Set());
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: ' https://Agent.example/ , http://127.0.0.1:3000,' }).MCP_ALLOWED_ORIGINS).toEqual(
      new Set(['https://agent.example', 'http://127.0.0.1:3000']),
    );
  });
});

describe('AUDIT_LOG and AUDIT_RETENTION_HOURS', () => {
  it('default to stdout and 7 days; a file needs a writable folder; the retention is whole hours up to a year', () => {
    const c = loadConfig({});
    expect([c.AUDIT_LOG, c.AUDIT_RETENTION_HOURS]).toEqual(['stdout', 168]);
    expect(loadConfig({ AUDIT_LOG: `${tmpdir()}/openpm-audit.jsonl` }).AUDIT_LOG).toBe(`${tmpdir()}/openpm-audit.jsonl`);
    expect(() => loadConfig({ AUDIT_LOG: '/no/such/folder/audit.jsonl' })).toThrow(/AUDIT_LOG/);
    expect(loadConfig({ AUDIT_RETENTION_HOURS: '24' }).AUDIT_RETENTION_HOURS).toBe(24);
    for (const bad of ['0', '1.5', '8761', 'week'])
      expect(() => loadConfig({ AUDIT_RETENTION_HOURS: bad })).toThrow(/AUDIT_RETENTION_HOURS/);
  });
});
