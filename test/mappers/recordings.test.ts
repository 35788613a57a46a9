import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORDINGS, readRecording } from '../../fixtures/recorded/index.ts';
import { ErrorEnvelope } from '../../src/upstream/internal-api.ts';

const dir = join(import.meta.dirname, '../../fixtures/recorded');

describe('recorded backend payloads', () => {
  it('every JSON file is in the manifest, once', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(RECORDINGS.map((r) => r.file).sort()).toEqual(files);
  });

  it('covers every endpoint of docs/internal-api.md', () => {
    const covered = new Set(RECORDINGS.map((r) => `${r.method} ${r.path.split('?')[0]?.replace(/[0-9a-f-]{36}/g, '{id}')}`));
    for (const endpoint of [
      'POST /internal/auth/api-keys/verify',
      'GET /internal/users/{id}/profile',
      'GET /internal/users/{id}/favorites',
      'GET /internal/users/{id}/created',
      'GET /internal/users/by-handle/bob/created',
      'GET /internal/wallet/{id}/ledger',
      'GET /internal/prediction/categories',
      'GET /internal/prediction/markets',
      'GET /internal/prediction/markets/{id}',
      'GET /internal/prediction/markets/{id}/price-history',
      'GET /internal/prediction/markets/{id}/opinions',
      'POST /internal/prediction/markets/{id}/quote',
      'POST /internal/prediction/orders',
      'GET /internal/prediction/users/{id}/holdings',
      'GET /internal/prediction/opinions/{id}',
      'POST /internal/prediction/markets/{id}/opinions',
      'GET /internal/prediction/users/{id}/opinions',
      'POST /internal/prediction/opinions/{id}/backs',
      'GET /internal/prediction/users/{id}/backs',
      'GET /internal/poll/polls',
      'GET /internal/poll/polls/{id}',
      'GET /internal/poll/polls/{id}/comments',
      'GET /internal/search',
      'GET /internal/zones',
      'GET /internal/contests/{id}',
    ]) {
      expect(covered, endpoint).toContain(endpoint);
    }
  });

  it.each(RECORDINGS.filter((r) => r.valid).map((r) => [r.file, r] as const))('%s passes its schema', (_f, r) => {
    const result = r.schema.safeParse(readRecording(r.file));
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it.each(RECORDINGS.filter((r) => !r.valid).map((r) => [r.file, r] as const))('%s (an unknown enum value) fails its schema', (_f, r) => {
    const result = r.schema.safeParse(readRecording(r.file));
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((i) => i.code === 'invalid_value')).toBe(true);
  });

  it('records an error envelope the poll service answers with HTTP 200', () => {
    const r = RECORDINGS.find((x) => x.file === 'poll.detail.err-40001.http-200.json');
    expect(r?.status).toBe(200);
    expect(ErrorEnvelope.parse(readRecording('poll.detail.err-40001.http-200.json'))).toEqual({
      errCode: 40001,
      errMsg: 'poll not found',
    });
  });

  it('file names state the HTTP status of every error envelope', () => {
    for (const r of RECORDINGS) {
      const isError = ErrorEnvelope.safeParse(readRecording(r.file)).success;
      expect(isError, r.file).toBe(/\.http-\d{3}\.json$/.test(r.file));
      if (isError) expect(r.file).toContain(`.http-${r.status}.json`);
    }
  });
});
