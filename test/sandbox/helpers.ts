/** A sandbox on an ephemeral port and a tiny fetch client for its internal API. */
import type { z } from 'zod';
import { okEnvelope } from '../../fixtures/recorded/index.ts';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';

export const TOKEN = 'test-service-token';
/** A fixed base clock keeps every run identical. */
export const NOW = Date.UTC(2026, 5, 1, 12);

export async function boot(): Promise<Sandbox> {
  return startSandbox({ port: 0, serviceToken: TOKEN, now: () => NOW });
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is, with a JSON content type). */
  raw?: string;
  user?: string;
  idem?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  json: any;
}

export function client(base: string) {
  return async function call(method: string, path: string, o: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token !== null) headers['x-service-token'] = o.token ?? TOKEN;
    if (o.user) headers['x-acting-user'] = o.user;
    if (o.idem) headers['idempotency-key'] = o.idem;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, headers: res.headers, json };
  };
}

/** Parses a success envelope with the endpoint's schema (throws with zod's report otherwise). */
export function data<T extends z.ZodType>(schema: T, a: Answer): z.infer<T> {
  if (a.json?.errCode !== 0) throw new Error(`expected success, got HTTP ${a.status} ${JSON.stringify(a.json)}`);
  return (okEnvelope(schema).parse(a.json) as { data: z.infer<T> }).data;
}
