/**
 * The public documents (/openapi.json, /docs and what the docs pages load) served as a static
 * file server would: each body compressed once, in gzip and brotli, and answered in the coding
 * the client accepts (`Vary: Accept-Encoding`), with a strong `ETag` (`If-None-Match` → 304) and
 * `Cache-Control: public, max-age=300`. A client looping on the 177 KB OpenAPI document then
 * costs a header exchange, or a few kilobytes, instead of a fresh serialisation each time.
 *
 * An `onSend` hook over the routes of its scope: the OpenAPI document is prepared when the
 * plugin registers (at start-up); a docs page, whose application is only built on the first
 * view (src/surfaces/rest/docs-page.ts says why), when it is first served. A body is prepared again only
 * if it changes (the docs page embeds the sandbox's demo key once the backend is known to be
 * the sandbox); bodies are compared byte for byte, which costs far less than compressing.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routerPath } from './paths.ts';

/** How long a client or a shared cache may reuse a document before asking again (If-None-Match). */
export const DOCUMENT_MAX_AGE_SECONDS = 300;
const CACHE_CONTROL = `public, max-age=${DOCUMENT_MAX_AGE_SECONDS}`;
/** Distinct bodies kept (the docs pages serve a handful of files); the oldest goes first. */
const MAX_BODIES = 16;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export type Coding = 'br' | 'gzip' | 'identity';

export interface PreparedBody {
  /** The strong validator of the identity body; each coding's ETag derives from it. */
  tag: string;
  bodies: Record<Coding, Buffer>;
}

export async function prepareBody(body: Buffer): Promise<PreparedBody> {
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 32);
  // Compressed off the event loop (zlib's thread pool), once per body.
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipped(body, { level: 9 }),
  ]);
  return { tag, bodies: { br, gzip: gz, identity: body } };
}

/**
 * The coding to answer with, from an Accept-Encoding header (RFC 9110 §12.5.3): brotli, then
 * gzip, when accepted with a non-zero q-value (directly or through `*`); otherwise identity.
 */
export function chooseCoding(acceptEncoding: string | undefined): Coding {
  if (acceptEncoding === undefined || acceptEncoding === '') return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepted = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return 'identity';
}

function etagOf(prepared: PreparedBody, coding: Coding): string {
  return coding === 'identity' ? `"${prepared.tag}"` : `"${prepared.tag}-${coding}"`;
}

/** Whether If-None-Match names this body in any coding (or is `*`). */
function notModified(ifNoneMatch: string | undefined, prepared: PreparedBody): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === `"${prepared.tag}"` || tag === `"${prepared.tag}-br"` || tag === `"${prepared.tag}-gzip"`;
  });
}

/** Answer a prepared body: the coding negotiated, its validator and caching headers, or a 304. */
function answer(request: FastifyRequest, reply: FastifyReply, prepared: PreparedBody): Buffer | null {
  const coding = chooseCoding(request.headers['accept-encoding']);
  reply.header('vary', 'Accept-Encoding');
  reply.header('cache-control', CACHE_CONTROL);
  reply.header('etag', etagOf(prepared, coding));
  if (notModified(request.headers['if-none-match'], prepared)) {
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return null;
  }
  if (coding !== 'identity') reply.header('content-encoding', coding);
  const body = prepared.bodies[coding];
  reply.header('content-length', body.length);
  return body;
}

export interface PublicDocumentsOptions {
  /** Bodies known at start-up, by path (the OpenAPI document): prepared now, not on first use. */
  prepare?: Record<string, Buffer>;
}

const publicDocuments: FastifyPluginAsync<PublicDocumentsOptions> = async (app, opts) => {
  const byPath = new Map<string, { source: Buffer; prepared: Promise<PreparedBody> }>();
  // One body served under several paths is prepared once.
  const bySource = new WeakMap<Buffer, Promise<PreparedBody>>();
  const remember = (path: string, source: Buffer) => {
    const prepared = bySource.get(source) ?? prepareBody(source);
    bySource.set(source, prepared);
    const entry = { source, prepared };
    byPath.delete(path);
    byPath.set(path, entry);
    if (byPath.size > MAX_BODIES) byPath.delete(byPath.keys().next().value as string);
    return entry;
  };
  for (const [path, body] of Object.entries(opts.prepare ?? {})) await remember(path, body).prepared;

  app.addHook('onSend', async (request, reply, payload) => {
    // Only whole successful GETs are documents; a HEAD, a redirect or an error passes as it is.
    if (request.method !== 'GET' || reply.statusCode !== 200) return payload;
    const source = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (source === null) return payload;
    const path = routerPath(request.url);
    const known = byPath.get(path);
    const entry = known?.source.equals(source) ? known : remember(path, source);
    return answer(request, reply, await entry.prepared);
  });
};

export default fp(publicDocuments, { name: 'openpm-public-documents', fastify: '5.x' });
