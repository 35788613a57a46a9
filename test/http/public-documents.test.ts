/**
 * The public documents are served prebuilt and compressed, with validators and caching headers
 * (src/http/public-documents.ts), and the endpoints served without a key are limited per client
 * address (src/limits/public-throttle.ts), while keyed traffic from the same address goes on.
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseCoding } from '../../src/http/public-documents.ts';
import { KEYS, startStack, type Stack } from '../helpers/stack.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('chooseCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['deflate', 'identity'],
  ] as const)('%s → %s', (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });
});

describe('documents', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it.each(['/openapi.json', '/open/v1/openapi.json'])(
    '%s: brotli, gzip or identity by Accept-Encoding, the same document',
    async (path) => {
      const plain = await get(stack.url, path);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const doc = JSON.parse(plain.body.toString('utf8')) as { openapi: string };
      expect(doc.openapi).toBe('3.1.0');

      const br = await get(stack.url, path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length * 4).toBeLessThan(plain.body.length);

      const gz = await get(stack.url, path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

      for (const r of [plain, br, gz]) {
        expect(r.headers['vary']).toMatch(/accept-encoding/i);
        expect(r.headers['cache-control']).toBe('public, max-age=300');
        expect(r.headers['etag']).toMatch(/^"[A-Za-z0-9_-]+(-br|-gzip)?"$/);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(Number(r.headers['content-length'])).toBe(r.body.length);
      }
      // A strong validator per representation.
      expect(new Set([plain, br, gz].map((r) => r.headers['etag'])).size).toBe(3);
    },
  );

  it('If-None-Match with the ETag (of any coding) is a 304 without a body', async () => {
    const first = await get(stack.url, '/openapi.json', { 'accept-encoding': 'br' });
    const etag = first.headers['etag'] as string;
    for (const [inm, ae] of [
      [etag, 'br'],
      [etag, 'gzip'],
      [`"nope", ${etag}`, ''],
      [`W/${etag}`, 'br'],
      ['*', 'br'],
    ] as const) {
      const r = await get(stack.url, '/openapi.json', { 'if-none-match': inm, 'accept-encoding': ae });
      expect(r.status, inm).toBe(304);
      expect(r.body.length).toBe(0);
      expect(r.headers['cache-control']).toBe('public, max-age=300');
      expect(r.headers['etag']).toBeDefined();
    }
    const changed = await get(stack.url, '/openapi.json', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it.each(['/docs/', '/docs/mcp/', '/docs/js/scalar.js'])('%s: compressed, validated and cacheable like the document', async (path) => {
    const plain = await get(stack.url, path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^(text\/html|application\/javascript|text\/javascript)/);
    const br = await get(stack.url, path, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers['cache-control']).toBe('public, max-age=300');
    const again = await get(stack.url, path, { 'accept-encoding': 'br', 'if-none-match': br.headers['etag'] as string });
    expect(again.status).toBe(304);
  });

  it('an unknown docs path is still the envelope 404, uncached', async () => {
    const r = await get(stack.url, '/docs/no-such-file.js', { 'accept-encoding': 'br' });
    expect(r.status).toBe(404);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body.toString('utf8')).error.code).toBe('NOT_FOUND');
  });
});

describe('endpoints without a key, per client address', () => {
  let stack: Stack;
  // The gateway's clock, which the health budget counts by (the documents' limiter keeps its own).
  let clock = Date.parse('2026-03-01T12:00:00Z');
  beforeAll(async () => {
    stack = await startStack({
      env: { RATE_LIMITS: 'off', PUBLIC_REQUESTS_PER_MINUTE: 4, HEALTH_REQUESTS_PER_MINUTE: 6, TRUST_PROXY: '127.0.0.1' },
      now: () => clock,
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('past the budget: 429 with the envelope and Retry-After; other addresses and keyed traffic go on', async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const paths = ['/openapi.json', '/docs/', '/open/v1/openapi.json', '/docs/js/scalar.js'];
    for (const path of paths) expect((await get(stack.url, path, from('203.0.113.7'))).status, path).toBe(200);
    for (const path of [...paths, '/docs/mcp/']) {
      const r = await get(stack.url, path, from('203.0.113.7'));
      expect(r.status, path).toBe(429);
      const retryAfter = Number(r.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(JSON.parse(r.body.toString('utf8')).error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: retryAfter } });
    }
    // Another address has its own budget.
    expect((await get(stack.url, '/openapi.json', from('203.0.113.8'))).status).toBe(200);
    // Keyed traffic from the throttled address is not affected, nor are its health probes.
    const keyed = await get(stack.url, '/open/v1/me', { ...from('203.0.113.7'), authorization: `Bearer ${KEYS.aliceRead}` });
    expect(keyed.status).toBe(200);
    expect((await get(stack.url, '/livez', from('203.0.113.7'))).status).toBe(200);
  });

  it('health has a budget of its own, counted in memory', async () => {
    const from = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 6; i += 1) expect((await get(stack.url, i % 2 === 0 ? '/livez' : '/readyz', from)).status).toBe(200);
    // 15 s into the minute that began with the first probe: the budget frees in 45 s.
    clock += 15_000;
    const r = await get(stack.url, '/livez', from);
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('45');
    expect(JSON.parse(r.body.toString('utf8')).error).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many requests from this address: retry after 45 seconds.',
      details: { retry_after: 45 },
    });
    clock += 45_000;
    expect((await get(stack.url, '/livez', from)).status).toBe(200);
  });
});
