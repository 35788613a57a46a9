/**
 * One backend exchange over undici's dispatch() and the call's deadline (src/upstream/exchange.ts),
 * against real servers: what undici's request() used to guarantee must still hold.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline, exchange, type ExchangeRequest } from '../../src/upstream/exchange.ts';
import { sleepUnless } from '../../src/upstream/resilience/retry.ts';
import { realServer, type RealServer } from './helpers.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // An agent a test destroyed refuses close(); it is closed all the same.
  for (const o of open.splice(0)) await o.close().catch(() => undefined);
});

async function server(handler: Parameters<typeof realServer>[0]): Promise<RealServer> {
  const s = await realServer(handler);
  open.push(s);
  return s;
}

function agent(connections = 4): Agent {
  const a = new Agent({ connections, allowH2: false });
  open.push(a);
  return a;
}

const get = (s: RealServer, path = '/x'): ExchangeRequest => ({ origin: s.url, path, method: 'GET', headers: {}, body: undefined });

describe('exchange', () => {
  it('collects a body sent in pieces, a character split across two of them', async () => {
    // "é" is two bytes in UTF-8: the first chunk ends between them.
    const bytes = Buffer.from('{"name":"café","n":1}');
    const cut = bytes.indexOf(0xc3) + 1;
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-extra': 'yes' });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 20);
    });
    const deadline = new Deadline(2_000);
    const answer = await exchange(agent(), get(s), deadline);
    deadline.clear();
    expect(answer.status).toBe(200);
    expect(answer.headers['x-extra']).toBe('yes');
    expect(answer.text).toBe('{"name":"café","n":1}');
  });

  it('sends the method, path with query, headers and body it is given', async () => {
    let seen: { method?: string; url?: string; token?: string | string[]; body: string } = { body: '' };
    const s = await server((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        seen = { method: req.method, url: req.url, token: req.headers['x-service-token'], body };
        res.writeHead(201);
        res.end();
      });
    });
    const deadline = new Deadline(2_000);
    const answer = await exchange(
      agent(),
      { origin: s.url, path: '/a/b?c=1', method: 'POST', headers: { 'x-service-token': 't' }, body: '{"k":1}' },
      deadline,
    );
    deadline.clear();
    expect(answer).toEqual({ status: 201, headers: expect.any(Object), text: '' });
    expect(seen).toEqual({ method: 'POST', url: '/a/b?c=1', token: 't', body: '{"k":1}' });
  });

  it('answers the final status when an informational one comes first', async () => {
    const s = await server((_req, res) => {
      res.writeEarlyHints({ link: '</x>; rel=preload' });
      res.writeHead(200);
      res.end('{}');
    });
    const deadline = new Deadline(2_000);
    const answer = await exchange(agent(), get(s), deadline);
    deadline.clear();
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{}');
  });

  it('fails with the deadline when the backend does not answer in time, and drops the request', async () => {
    let closed = false;
    const s = await server((req) => {
      req.socket.once('close', () => {
        closed = true;
      });
    });
    const err = await exchange(agent(), get(s), new Deadline(80)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DOMException);
    expect((err as DOMException).name).toBe('TimeoutError');
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it('fails with the deadline while still queued for a connection, and never sends that request', async () => {
    const s = await server(() => {}); // holds every request
    const one = agent(1);
    const first = new Deadline(2_000);
    const hanging = exchange(one, get(s, '/first'), first).catch((e: unknown) => e);
    await sleep(30);
    const err = await exchange(one, get(s, '/second'), new Deadline(60)).catch((e: unknown) => e);
    expect((err as DOMException).name).toBe('TimeoutError');
    expect(s.hits).toBe(1);
    first.clear();
    await one.destroy();
    expect(await hanging).toBeInstanceOf(Error);
    expect(s.hits).toBe(1);
  });

  it('does not send at all under a deadline that has already fired', async () => {
    const s = await server((_req, res) => res.end('{}'));
    const deadline = new Deadline(0);
    await sleep(20);
    const err = await exchange(agent(), get(s), deadline).catch((e: unknown) => e);
    expect((err as DOMException).name).toBe('TimeoutError');
    expect(s.hits).toBe(0);
  });

  it("passes on the dispatcher's own refusal: an answer over its size limit", async () => {
    const s = await server((_req, res) => res.end('x'.repeat(10_000)));
    const small = new Agent({ maxResponseSize: 1_000 });
    open.push(small);
    const deadline = new Deadline(2_000);
    const err = await exchange(small, get(s), deadline).catch((e: unknown) => e);
    deadline.clear();
    expect((err as { code?: string }).code).toBe('UND_ERR_RES_EXCEEDED_MAX_SIZE');
  });
});

describe('Deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls its listeners once when it fires, and a late listener at once', async () => {
    const deadline = new Deadline(20);
    const heard: string[] = [];
    deadline.onExpire((r) => heard.push(`a:${r.name}`));
    const removed = deadline.onExpire(() => heard.push('b'));
    removed();
    expect(deadline.reason).toBeNull();
    vi.advanceTimersByTime(19);
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(heard).toEqual(['a:TimeoutError']);
    vi.advanceTimersByTime(1_000);
    expect(heard).toEqual(['a:TimeoutError']);
    deadline.onExpire((r) => heard.push(`late:${r.message}`));
    expect(heard).toEqual(['a:TimeoutError', 'late:upstream call deadline reached']);
  });

  it('never fires once cleared', async () => {
    const deadline = new Deadline(20);
    let fired = false;
    deadline.onExpire(() => {
      fired = true;
    });
    deadline.clear();
    vi.advanceTimersByTime(1_000);
    expect(fired).toBe(false);
    expect(deadline.reason).toBeNull();
  });

  it('sleepUnless: sleeps the whole wait, or wakes with false when the deadline fires first', async () => {
    const long = new Deadline(1_000);
    const whole = sleepUnless(10, long);
    await vi.advanceTimersByTimeAsync(10);
    expect(await whole).toBe(true);
    long.clear();
    const short = new Deadline(20);
    let woke: boolean | null = null;
    void sleepUnless(1_000, short).then((v) => {
      woke = v;
    });
    await vi.advanceTimersByTimeAsync(19);
    expect(woke).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(woke).toBe(false);
    expect(await sleepUnless(10, short)).toBe(false);
  });
});
