/**
 * One HTTP exchange with the backend, and the deadline that bounds a whole call.
 *
 * The exchange goes through undici's `dispatch()` with a handler that collects the body as it
 * arrives, rather than `request()`, whose per-response stream, AsyncResource and AbortSignal
 * listener the client would only read into one string (docs/performance.md, kept optimisations).
 * The dispatcher's limits (connect timeout, maximum response size) apply the same either way:
 * they live in the dispatcher, not in the API used to call it.
 *
 * The deadline is a timer with plain callbacks, not an AbortController: every call has one,
 * and nothing outside the client listens to it.
 */
import type { Dispatcher } from 'undici';

export interface ExchangeRequest {
  origin: string;
  /** Path and query string. */
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
}

export interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded as UTF-8 ('' when there is none). */
  text: string;
}

/** The budget of one call: fires once, `ms` after it is made, unless cleared first. */
export class Deadline {
  /** performance.now() at which it fires. */
  readonly at: number;
  #reason: Error | null = null;
  #listeners: ((reason: Error) => void)[] = [];
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(ms: number) {
    this.at = performance.now() + ms;
    this.#timer = setTimeout(() => this.#fire(), ms);
  }

  /** The error a call cut short by the deadline fails with; null until it fires. */
  get reason(): Error | null {
    return this.#reason;
  }

  /** Runs `listener` when the deadline fires (at once if it has); returns its removal. */
  onExpire(listener: (reason: Error) => void): () => void {
    if (this.#reason !== null) {
      listener(this.#reason);
      return () => undefined;
    }
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /** The call ended: the timer is cleared, so it neither fires nor holds the process open. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#listeners = [];
  }

  #fire(): void {
    this.#reason = new DOMException('upstream call deadline reached', 'TimeoutError');
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener(this.#reason);
  }
}

/**
 * Sends the request and resolves with the whole answer; rejects with undici's error (a
 * connection failure, a timeout of the dispatcher, a response over the size limit) or with
 * the deadline's reason when it fires first, in which case the request is aborted.
 */
export function exchange(dispatcher: Dispatcher, request: ExchangeRequest, deadline: Deadline): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let settled = false;
    let status = 0;
    let headers: Exchanged['headers'] = {};
    const chunks: Buffer[] = [];

    const settle = (err: Error | null, answer?: Exchanged): void => {
      if (settled) return;
      settled = true;
      stopWatching();
      if (err !== null) reject(err);
      else resolve(answer as Exchanged);
    };
    if (deadline.reason !== null) {
      reject(deadline.reason);
      return;
    }
    // A request still queued for a connection has no controller yet: onRequestStart aborts it.
    const stopWatching = deadline.onExpire((reason) => {
      controller?.abort(reason);
      settle(reason);
    });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(deadline.reason ?? new Error('upstream call ended'));
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        // An informational answer (103 Early Hints) comes first: the final one overwrites it.
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(_c, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const text = chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
        settle(null, { status, headers, text });
      },
      onResponseError(_c, err) {
        settle(err);
      },
    };
    try {
      dispatcher.dispatch(
        { origin: request.origin, path: request.path, method: request.method, headers: request.headers, body: request.body ?? null },
        handler,
      );
    } catch (err) {
      settle(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
