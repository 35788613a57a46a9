/**
 * A backend that does not answer until the test lets it: an HTTP proxy in front of the sandbox
 * that holds the requests of the paths it is told to hold and forwards them only on release.
 * A test can then show what a gateway answers while its backend still holds a request, by the
 * order of events instead of a clock: nothing held is answered before release().
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hold {
  /** Resolves once `n` requests have been held. */
  arrival(n: number): Promise<void>;
  /** Forward every request held, and let later ones through. */
  release(): void;
}

export interface HeldBackend {
  url: string;
  /** Hold the requests whose path starts with `pathPrefix` until the hold is released. */
  hold(pathPrefix: string): Hold;
  /** Release every hold (after each test, so that one that failed holds nothing for the next). */
  releaseAll(): void;
  close(): Promise<void>;
}

class PathHold implements Hold {
  readonly prefix: string;
  released = false;
  #arrived = 0;
  #held: (() => void)[] = [];
  #waiters: { n: number; resolve: () => void }[] = [];

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  add(send: () => void): void {
    this.#held.push(send);
    this.#arrived += 1;
    for (const w of this.#waiters.filter((x) => this.#arrived >= x.n)) w.resolve();
    this.#waiters = this.#waiters.filter((x) => this.#arrived < x.n);
  }

  arrival(n: number): Promise<void> {
    if (this.#arrived >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }

  release(): void {
    this.released = true;
    for (const send of this.#held.splice(0)) send();
  }
}

export async function startHeldBackend(target: string): Promise<HeldBackend> {
  const holds: PathHold[] = [];
  const origin = new URL(target);

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const out = request(new URL(req.url ?? '/', origin), { method: req.method, headers: { ...req.headers, host: origin.host } });
    out.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const hold = holds.find((h) => !h.released && (req.url ?? '').startsWith(h.prefix));
      if (hold === undefined) return forward(req, res, body);
      // The gateway may give up on a held request: its answer then goes nowhere.
      let gone = false;
      res.once('close', () => {
        gone = true;
      });
      hold.add(() => {
        if (!gone) forward(req, res, body);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  const releaseAll = () => {
    for (const h of holds.splice(0)) h.release();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    hold(prefix) {
      const h = new PathHold(prefix);
      holds.push(h);
      return h;
    },
    releaseAll,
    async close() {
      releaseAll();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A promise, and whether it has settled yet: what shows a gateway is still waiting on a hold. */
export function settles<T>(p: Promise<T>): { reply: Promise<T>; readonly settled: boolean } {
  let settled = false;
  const reply = p.finally(() => {
    settled = true;
  });
  return {
    reply,
    get settled() {
      return settled;
    },
  };
}
