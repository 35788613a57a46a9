/**
 * The benchmark's fixed-rate load: units leave on schedule, never early and never in bursts,
 * and a unit held up by a stalled target counts from when it was due.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type PacedOptions, paced, percentile } from '../../scripts/bench/paced.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const srv = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  server = srv;
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

/** Paced `GET /` units against `url`. */
function pacedRoot(url: string, load: Omit<PacedOptions, 'url' | 'steps'>) {
  return paced({ url, steps: [{ method: 'GET', path: '/' }], ...load });
}

describe('paced load', () => {
  it('starts units evenly over the run, none before it is due', async () => {
    const arrivals: number[] = [];
    const url = await serve((_req, _body, res) => {
      arrivals.push(performance.now());
      res.end('{}');
    });
    const before = performance.now();
    const r = await pacedRoot(url, { connections: 8, unitsPerSecond: 400, seconds: 0.5 });
    expect(r).toMatchObject({ ok: 200, failed: 0 });
    expect(r.latencies).toHaveLength(200);
    // Unit i is due 2.5 ms × i after the run starts: a quota sent at once would arrive within a
    // few ms of the start.
    for (const [i, t] of arrivals.entries()) expect(t - before).toBeGreaterThanOrEqual(i * 2.5);
  });

  it('counts a stall of the target against every unit sent during it, queued ones included', async () => {
    let seen = 0;
    let held: ServerResponse[] | undefined;
    const url = await serve((_req, _body, res) => {
      seen += 1;
      if (seen === 10) {
        // The target stops answering for 200 ms, as in a long GC pause, then answers everything.
        held = [];
        setTimeout(() => {
          for (const r of held ?? []) r.end('{}');
          held = undefined;
          res.end('{}');
        }, 200);
        return;
      }
      if (held !== undefined) return void held.push(res);
      res.end('{}');
    });
    const r = await pacedRoot(url, { connections: 4, unitsPerSecond: 200, seconds: 0.5 });
    expect(r.ok).toBe(100);
    // About 40 units are sent during the stall (5 ms apart), all but 4 of them while every
    // connection is busy; a load that waited for a free connection before sending would see
    // only the 4 on the wire as slow.
    expect(r.latencies.filter((ms) => ms >= 100).length).toBeGreaterThanOrEqual(15);
    expect(percentile(r.latencies, 99)).toBeGreaterThanOrEqual(150);
  });

  it('runs the steps of a unit in order, the second shaped by the first answer', async () => {
    const bodies: string[] = [];
    const url = await serve((req, body, res) => {
      if (req.url === '/preview') return res.end(JSON.stringify({ token: `t${bodies.length}` }));
      bodies.push(body);
      res.end('{}');
    });
    const r = await paced({
      url,
      connections: 2,
      unitsPerSecond: 100,
      seconds: 0.1,
      steps: [
        { method: 'POST', path: '/preview', onResponse: (_s, body, ctx) => (ctx['token'] = (JSON.parse(body) as { token: string }).token) },
        { method: 'POST', path: '/execute', setupRequest: (req, ctx) => ({ ...req, body: String(ctx['token']) }) },
      ],
    });
    expect(r).toMatchObject({ ok: 10, failed: 0 });
    expect(bodies).toHaveLength(10);
    for (const b of bodies) expect(b).toMatch(/^t\d+$/);
  });

  it('sends the lead-in first and measures only the units after it', async () => {
    let seen = 0;
    const url = await serve((_req, _body, res) => {
      seen += 1;
      // A slow start, as of a target that has just been woken: the first 20 answers take 150 ms.
      if (seen <= 20) setTimeout(() => res.end('{}'), 150);
      else res.end('{}');
    });
    const starts: { at: number; seen: number }[] = [];
    const before = performance.now();
    const r = await pacedRoot(url, {
      connections: 32,
      unitsPerSecond: 200,
      seconds: 0.3,
      leadInSeconds: 0.3,
      onMeasureStart: () => starts.push({ at: performance.now() - before, seen }),
    });
    expect(seen).toBe(120);
    expect(r).toMatchObject({ ok: 60, failed: 0, leadInFailed: 0 });
    expect(r.latencies).toHaveLength(60);
    // Called once, when the 61st unit was due (300 ms in), before it was sent.
    expect(starts).toHaveLength(1);
    expect(starts[0]?.at).toBeGreaterThanOrEqual(300);
    expect(starts[0]?.seen).toBeLessThanOrEqual(60);
    // The slow start fell in the lead-in: none of the measured units waited for it (without the
    // lead-in, 20 of them would have taken 150 ms or more).
    expect(Math.max(...r.latencies)).toBeLessThan(140);
  });

  it('counts error statuses, failed bodies and unanswered units as failed, with a sample', async () => {
    let n = 0;
    const url = await serve((_req, _body, res) => {
      n += 1;
      if (n % 4 === 1) {
        res.statusCode = 500;
        res.end('boom');
      } else if (n % 4 === 2) res.end('{"isError":true}');
      else if (n % 4 === 0) res.end('{}');
      // n % 4 === 3: never answered
    });
    const r = await paced({
      url,
      steps: [{ method: 'GET', path: '/x' }],
      connections: 8,
      unitsPerSecond: 80,
      seconds: 0.1,
      bodyFailed: (b) => b.includes('isError'),
      drainMs: 300,
    });
    expect(r.ok).toBe(2);
    expect(r.failed).toBe(6);
    expect(r.leadInFailed).toBe(0);
    expect(r.sample).toBe('HTTP 500 /x: boom');
  });

  it('counts failures of the lead-in apart from the measured units', async () => {
    let n = 0;
    const url = await serve((_req, _body, res) => {
      n += 1;
      // The first three answers (all in the lead-in) are errors; the rest succeed.
      res.statusCode = n <= 3 ? 503 : 200;
      res.end(n <= 3 ? 'waking' : '{}');
    });
    const r = await pacedRoot(url, { connections: 1, unitsPerSecond: 100, seconds: 0.1, leadInSeconds: 0.1 });
    expect(r).toMatchObject({ ok: 10, failed: 0, leadInFailed: 3, sample: 'HTTP 503 /: waking' });
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
