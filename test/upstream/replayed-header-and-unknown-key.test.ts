/**
 * The backend's `Idempotent-Replayed: true` (docs/internal-api.md, "Writes and idempotency") and
 * the log level of an unknown key (a client's mistake, never a backend fault).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bindUpstream, written } from '../../src/upstream/bound.ts';
import { UpstreamErrCode } from '../../src/upstream/internal-api.ts';
import { ApiKeyVerdict } from '../../src/upstream/internal-api.ts';
import { Thing, failure, json, makeClient, realServer, recorder, type RealServer } from './helpers.ts';

let server: RealServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function backend(headers: Record<string, string>, body: unknown = { errCode: 0, data: { name: 'w', n: 2 } }): Promise<string> {
  server = await realServer((_req, res) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    json(res, 200, body);
  });
  return server.url;
}

const write = { method: 'POST' as const, path: '/internal/write', body: { a: 1 }, idempotencyKey: 'idem-1', schema: Thing };

describe('a write answered by the backend', () => {
  for (const [header, replayed] of [
    [{ 'idempotent-replayed': 'true' }, true],
    [{ 'Idempotent-Replayed': 'TRUE' }, true],
    [{ 'idempotent-replayed': 'false' }, false],
    [{}, false],
  ] as const) {
    it(`with ${JSON.stringify(header)} is ${replayed ? 'a replay' : 'performed now'}`, async () => {
      const rec = recorder();
      const up = bindUpstream(makeClient({ baseUrl: await backend(header) }), { requestId: 'r1', actingUser: 'u', log: rec.log });
      expect(await written(up, write)).toEqual({ data: { name: 'w', n: 2 }, replayed });
      expect(rec.lines.some((l) => l.msg === 'upstream answered an idempotent replay')).toBe(replayed);
    });
  }
});

describe('the backend saying "no such key"', () => {
  it('is 401 UNAUTHORIZED, logged at info, not as an error', async () => {
    const rec = recorder();
    const client = makeClient({ baseUrl: await backend({}, { errCode: UpstreamErrCode.API_KEY_NOT_FOUND, errMsg: 'no such key' }) });
    const err = await failure(
      client.call(
        { requestId: 'r2', log: rec.log },
        { method: 'POST', path: '/internal/auth/api-keys/verify', body: { keyHash: 'x' }, schema: ApiKeyVerdict },
      ),
    );
    expect(err.code).toBe('UNAUTHORIZED');
    expect(rec.lines.map((l) => [l.level, l.msg])).toEqual([['info', 'upstream error']]);
  });

  it('an unknown code stays an error', async () => {
    const rec = recorder();
    const client = makeClient({ baseUrl: await backend({}, { errCode: 99999, errMsg: 'boom' }) });
    expect((await failure(client.call({ requestId: 'r3', log: rec.log }, { path: '/internal/x', schema: Thing }))).code).toBe('INTERNAL');
    expect(rec.lines.map((l) => l.level)).toEqual(['error']);
  });
});
