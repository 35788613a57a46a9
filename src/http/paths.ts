/** Where the two surfaces live (docs/contract/versioning.md#base-paths: REST under /open/v1; MCP at /mcp on the same host). */
import type { Surface } from '../metrics/metrics.ts';

export const REST_PREFIX = '/open/v1';
export const MCP_PATH = '/mcp';

/** What a surface is read from: a Fastify request has both. */
export interface RoutedRequest {
  readonly url: string;
  /** The route the router matched (its template), undefined when none did. */
  readonly routeOptions: { readonly url?: string | undefined };
}

/**
 * Which surface a request belongs to; health, OpenAPI and unknown paths are `other`. The kill
 * switch and the no-store rule decide by this, so it must see the path as the router does: the
 * router decodes `/%6Fpen/v1/me` and serves it as `/open/v1/me`, and a gate that compared the raw
 * URL would let it through. A matched request is judged by its route; any other by its path,
 * read the way the router reads it.
 */
export function surfaceOf(request: RoutedRequest): Surface {
  // Almost every request names its surface plainly, and decoding cannot take a literal prefix
  // away: answered from the target as it came, without building the route's options object.
  const plain = plainSurface(request.url);
  if (plain !== null) return plain;
  return surfaceOfPath(request.routeOptions.url ?? routerPath(request.url));
}

const SURFACE_PREFIXES = [
  [REST_PREFIX, 'rest'],
  [MCP_PATH, 'mcp'],
] as const;

/** The surface of a target that starts with a surface's path (then `/`, `?` or nothing), else null. */
function plainSurface(target: string): Surface | null {
  for (const [prefix, surface] of SURFACE_PREFIXES) {
    if (!target.startsWith(prefix)) continue;
    const next = target.charCodeAt(prefix.length);
    // NaN: the target ends there; 47 '/', 63 '?'.
    if (Number.isNaN(next) || next === 47 || next === 63) return surface;
  }
  return null;
}

/** The surface of an already decoded path (or route template). */
export function surfaceOfPath(path: string): Surface {
  if (path === REST_PREFIX || path.startsWith(`${REST_PREFIX}/`)) return 'rest';
  if (path === MCP_PATH || path.startsWith(`${MCP_PATH}/`)) return 'mcp';
  return 'other';
}

/**
 * The path of a request target as the router matches it: the origin of an absolute-form target
 * dropped, cut at the query or fragment, percent-decoded except for reserved characters (an
 * encoded `/` stays encoded, as it does for the router). A target that does not decode is kept
 * as it came; the router refuses it anyway.
 */
export function routerPath(target: string): string {
  let path = target;
  if (path.charCodeAt(0) !== 47 /* '/' */) {
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
    if (origin !== null) path = path.slice(origin[0].length) || '/';
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** `Cache-Control` of every answer of the API, errors included (src/plugins/no-store.ts). */
export const NO_STORE = 'no-store';
