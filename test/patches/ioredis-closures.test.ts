/**
 * ioredis' per-command closures made young (src/patches/ioredis-closures.ts): V8 does allocate
 * them in the old generation as ioredis writes them, the replacements do not, and ioredis
 * behaves as before with them in place (replies, errors, friendly stacks, timeouts, a script's
 * EVAL/EVALSHA switch and its reload after the server lost it). The fingerprints tie the
 * replacements to the ioredis they were written from: another version fails here first.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepCommandClosuresYoung, mismatches } from '../../src/patches/ioredis-closures.ts';
import { defineScript } from '../../src/store/redis.ts';
import { freePort, RedisProcess } from '../upstream/redis-process.ts';

const run = promisify(execFile);
const moduleUrl = new URL('../../src/patches/ioredis-closures.ts', import.meta.url).href;

/**
 * Where a fresh process, its code not yet optimised by TurboFan (`--no-opt`), allocates the
 * `reject` closure of a command and of a script's command, with or without the replacements.
 */
async function whereAllocated(replace: boolean): Promise<{ command: string; script: string }> {
  const source = `
    import { createRequire } from 'node:module';
    import { Command } from 'ioredis';
    import { keepCommandClosuresYoung } from ${JSON.stringify(moduleUrl)};
    const ${replace ? 'applied = keepCommandClosuresYoung().applied' : 'applied = false'};
    const Script = createRequire(import.meta.resolve('ioredis'))('./Script.js').default;
    const where = (f) => (%InYoungGeneration(f) ? 'young' : 'old');
    const command = new Command('get', ['k']);
    const scripted = new (new Script('return 1', 0).Command)('evalsha', ['sha', 0]);
    scripted.toWritable({});
    console.log(JSON.stringify({ applied, command: where(command.reject), script: where(scripted.reject) }));
  `;
  const { stdout } = await run(process.execPath, ['--allow-natives-syntax', '--no-opt', '--input-type=module', '-e', source], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  const out = JSON.parse(stdout) as { applied: boolean; command: string; script: string };
  expect(out.applied).toBe(replace);
  return { command: out.command, script: out.script };
}

describe('the closures of a command', () => {
  it('are written for the installed ioredis', () => {
    // A new ioredis: read its Command#initPromise and Script again, then update or drop the module.
    expect(mismatches()).toEqual([]);
  });

  it('are allocated old as ioredis writes them, young once replaced', async () => {
    // The first half is V8's behaviour the module exists for: if it stops, the module can go.
    expect(await whereAllocated(false)).toEqual({ command: 'old', script: 'old' });
    expect(await whereAllocated(true)).toEqual({ command: 'young', script: 'young' });
  });

  it('are replaced once, and not at all in an ioredis whose code differs', () => {
    expect(keepCommandClosuresYoung()).toEqual({ applied: true });
    expect(keepCommandClosuresYoung()).toEqual({ applied: true });
    expect(mismatches()).toEqual([]);
    const proto = Command.prototype as unknown as { initPromise: () => void };
    const ours = proto.initPromise;
    const other = function initPromise() {};
    proto.initPromise = other;
    try {
      const answer = keepCommandClosuresYoung();
      expect(answer.applied).toBe(false);
      expect(answer).toMatchObject({ reason: expect.stringContaining('initPromise') });
      expect(proto.initPromise).toBe(other); // left as that ioredis has it
    } finally {
      proto.initPromise = ours;
    }
  });
});

describe('ioredis with the replacements', () => {
  // A server of this test's own: it flushes the server's scripts.
  let server: RedisProcess;
  let redis: Redis;

  beforeAll(async () => {
    expect(keepCommandClosuresYoung()).toEqual({ applied: true });
    server = new RedisProcess(await freePort());
    await server.start();
    redis = new Redis(server.url, { maxRetriesPerRequest: 1, commandTimeout: 1_000 });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.kill();
  });

  it('answers a command, and rejects with the server error', async () => {
    expect(await redis.set('k', 'v')).toBe('OK');
    expect(await redis.get('k')).toBe('v');
    await expect(redis.incr('k')).rejects.toThrow(/not an integer/);
  });

  it('gives the caller its own stack with showFriendlyErrorStack', async () => {
    const friendly = new Redis(server.url, { showFriendlyErrorStack: true, maxRetriesPerRequest: 1 });
    try {
      const err = await friendly.incr('k').then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/not an integer/);
      expect(err?.stack).toContain('ioredis-closures.test.ts');
      expect(err?.stack).not.toMatch(/ioredis[\\/]built[\\/]/);
    } finally {
      friendly.disconnect();
    }
  });

  it('rejects a command that outlives its timeout', async () => {
    const quick = new Redis(server.url, { commandTimeout: 200, maxRetriesPerRequest: 1 });
    try {
      await expect(quick.blpop('never-filled', 1)).rejects.toThrow('Command timed out');
      // The server answers the BLPOP after its second; then the connection serves the next command.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await quick.ping()).toBe('PONG');
    } finally {
      quick.disconnect();
    }
  });

  it('sends a script as EVAL first, then as EVALSHA, and again as EVAL once the server lost it', async () => {
    const double = defineScript(redis, 'closuresDouble', 1, 'return tonumber(ARGV[1]) * 2 + #KEYS[1] * 0');
    const calls = async () => {
      const info = await redis.info('commandstats');
      const count = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
      return { eval: count('eval'), evalsha: count('evalsha') };
    };
    await redis.config('RESETSTAT');
    expect(await double(['k'], [21])).toBe(42);
    expect(await double(['k'], [5])).toBe(10);
    expect(await calls()).toEqual({ eval: 1, evalsha: 1 });
    await redis.script('FLUSH');
    // EVALSHA meets NOSCRIPT; ioredis resends the call, as EVAL, and goes back to EVALSHA.
    expect(await double(['k'], [4])).toBe(8);
    expect(await double(['k'], [3])).toBe(6);
    expect(await calls()).toEqual({ eval: 2, evalsha: 3 });
  });
});
