/**
 * The authentication hook and its challenges (docs/contract/auth.md#unauthorized): what a
 * missing, malformed, unknown or valid key gets, which failures count against the client's
 * address, and the scope helpers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hashKey, type KeyAuthenticator } from '../../src/auth/authenticator.ts';
import { hasScope, type Caller } from '../../src/auth/caller.ts';
import { REALM, forbiddenScope, unauthorized } from '../../src/auth/challenge.ts';
import { authenticationHook, requireCaller } from '../../src/auth/plugin.ts';
import { ApiError } from '../../src/errors/api-error.ts';

const KEY = 'opk_test_alice_read_0000000000';
const alice: Caller = { userId: 'u-alice', keyId: 'k1', keyHash: 'h', scopes: new Set(['read']) };

function request(authorization?: string): FastifyRequest {
  return {
    headers: authorization === undefined ? {} : { authorization },
    raw: { rawHeaders: authorization === undefined ? [] : ['Authorization', authorization] },
    id: 'req-1',
    log: { info() {}, warn() {}, debug() {} },
    caller: null,
  } as unknown as FastifyRequest;
}

function authenticatorAnswering(answer: Caller | ApiError | Error) {
  const seen: string[] = [];
  const auth = {
    async authenticate(key: string) {
      seen.push(key);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as KeyAuthenticator;
  return { auth, seen };
}

function throttle(refuse = false) {
  const events: string[] = [];
  return {
    events,
    async admit(_request: FastifyRequest, keyHash: string | null) {
      events.push(keyHash === null ? 'admit' : `admit:${keyHash}`);
      if (refuse) throw new ApiError('RATE_LIMITED');
    },
    async recordFailure() {
      events.push('failure');
    },
  };
}

async function run(hook: ReturnType<typeof authenticationHook>, req: FastifyRequest): Promise<ApiError | null> {
  try {
    await hook(req, {} as FastifyReply);
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

describe('authentication hook', () => {
  it('attaches the caller of a valid key, without counting a failure', async () => {
    const { auth, seen } = authenticatorAnswering(alice);
    const t = throttle();
    const req = request(`Bearer ${KEY}`);
    expect(await run(authenticationHook(auth, t), req)).toBeNull();
    expect(req.caller).toBe(alice);
    expect(seen).toEqual([hashKey(KEY)]); // the hash, never the raw key
    expect(t.events).toEqual([`admit:${hashKey(KEY)}`]);
  });

  it('refuses a repeated Authorization header, in any letter case, without asking anyone', async () => {
    const { auth, seen } = authenticatorAnswering(alice);
    const t = throttle();
    const req = request(`Bearer ${KEY}`);
    (req.raw as { rawHeaders: string[] }).rawHeaders = ['Host', 'x', 'Authorization', `Bearer ${KEY}`, 'AUTHORIZATION', `Bearer ${KEY}`];
    const err = await run(authenticationHook(auth, t), req);
    expect(err?.headers).toEqual({ 'www-authenticate': 'Bearer realm="open-api", error="invalid_token"' });
    expect(req.caller).toBeNull();
    expect(seen).toEqual([]);
    expect(t.events).toEqual(['admit', 'failure']);
  });

  it('lets one Authorization header through beside other headers of its length', async () => {
    const { auth, seen } = authenticatorAnswering(alice);
    const req = request(`Bearer ${KEY}`);
    // Cache-Control and If-None-Match have as many letters as Authorization.
    (req.raw as { rawHeaders: string[] }).rawHeaders = [
      'Cache-Control',
      'no-cache',
      'Authorization',
      `Bearer ${KEY}`,
      'If-None-Match',
      '"x"',
    ];
    expect(await run(authenticationHook(auth, throttle()), req)).toBeNull();
    expect(req.caller).toBe(alice);
    expect(seen).toEqual([hashKey(KEY)]);
  });

  it('answers a missing key with the bare challenge, and counts it as a failure', async () => {
    const { auth, seen } = authenticatorAnswering(alice);
    const t = throttle();
    const err = await run(authenticationHook(auth, t), request());
    expect(err?.code).toBe('UNAUTHORIZED');
    expect(err?.headers).toEqual({ 'www-authenticate': `Bearer realm="${REALM}"` });
    expect(seen).toEqual([]);
    expect(t.events).toEqual(['admit', 'failure']);
  });

  it('answers a malformed key as an invalid token without asking anyone', async () => {
    const { auth, seen } = authenticatorAnswering(alice);
    const t = throttle();
    const err = await run(authenticationHook(auth, t), request('Bearer not-a-key'));
    expect(err?.headers).toEqual({ 'www-authenticate': 'Bearer realm="open-api", error="invalid_token"' });
    expect(seen).toEqual([]);
    expect(t.events).toEqual(['admit', 'failure']);
  });

  it('counts a key the authenticator refuses, but not a failure of its own', async () => {
    const refused = throttle();
    expect((await run(authenticationHook(authenticatorAnswering(unauthorized(true)).auth, refused), request(`Bearer ${KEY}`)))?.code).toBe(
      'UNAUTHORIZED',
    );
    expect(refused.events).toEqual([`admit:${hashKey(KEY)}`, 'failure']);
    const broken = throttle();
    expect(
      (await run(authenticationHook(authenticatorAnswering(new ApiError('INTERNAL')).auth, broken), request(`Bearer ${KEY}`)))?.code,
    ).toBe('INTERNAL');
    expect(broken.events).toEqual([`admit:${hashKey(KEY)}`]);
  });

  it('refuses a key the failure throttle does not admit before any verification', async () => {
    const { auth, seen } = authenticatorAnswering(alice);
    const t = throttle(true);
    const req = request(`Bearer ${KEY}`);
    expect((await run(authenticationHook(auth, t), req))?.code).toBe('RATE_LIMITED');
    expect(seen).toEqual([]);
    expect(req.caller).toBeNull();
  });

  it('logs each refusal at info, with why, and never the key', async () => {
    const lines: Array<{ level: string; obj: unknown; msg: string }> = [];
    const logged = (authorization?: string) => {
      const req = request(authorization);
      const at = (level: string) => (obj: unknown, msg: string) => void lines.push({ level, obj, msg });
      (req as unknown as { log: object }).log = { info: at('info'), warn: at('warn'), debug: at('debug'), error: at('error') };
      return req;
    };
    const hook = authenticationHook(authenticatorAnswering(unauthorized(true)).auth);
    await run(hook, logged());
    await run(hook, logged('Bearer not-a-key'));
    await run(hook, logged(`Bearer ${KEY}`));
    expect(lines).toEqual([
      { level: 'info', obj: { reason: 'no key' }, msg: 'authentication refused' },
      { level: 'info', obj: { reason: 'malformed key' }, msg: 'authentication refused' },
      { level: 'info', obj: { reason: 'unknown, revoked or expired key' }, msg: 'authentication refused' },
    ]);
  });

  it('works without a throttle', async () => {
    const { auth } = authenticatorAnswering(alice);
    expect((await run(authenticationHook(auth), request()))?.code).toBe('UNAUTHORIZED');
    const req = request(`Bearer ${KEY}`);
    expect(await run(authenticationHook(auth), req)).toBeNull();
    expect(requireCaller(req)).toBe(alice);
  });

  it('requireCaller refuses a request that did not pass the hook', () => {
    expect(() => requireCaller(request())).toThrow(/without authentication/);
  });
});

describe('challenges and scopes', () => {
  it('says why a key was refused, or that one is needed', () => {
    const sent = unauthorized(true);
    expect([sent.status, sent.message]).toEqual([401, 'The API key is invalid, revoked or expired.']);
    const missing = unauthorized(false);
    expect(missing.message).toBe('An API key is required: send Authorization: Bearer <key>.');
  });

  it('names the missing scope in the message, the details and the challenge', () => {
    const err = forbiddenScope('write');
    expect(err.code).toBe('FORBIDDEN_SCOPE');
    expect(err.status).toBe(403);
    expect(err.message).toBe('This operation needs an API key with the "write" scope.');
    expect(err.details).toEqual({ required_scope: 'write' });
    expect(err.headers).toEqual({ 'www-authenticate': 'Bearer realm="open-api", error="insufficient_scope", scope="write"' });
  });

  it("hasScope reads the caller's scopes", () => {
    expect(hasScope(alice, 'read')).toBe(true);
    expect(hasScope(alice, 'write')).toBe(false);
  });
});
