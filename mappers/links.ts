/**
 * Links the backend supplies (avatars, images, source links) are free-form strings. The
 * contract promises absolute http(s) URLs: a site-relative path (`/static/…`, as the app stores
 * some) is resolved against the app's web address, an absolute http(s) URL is kept, and
 * anything else (other schemes, bare words) is dropped rather than passed on.
 */
import type { MapContext } from './context.ts';

export function externalUrl(raw: string | null, ctx: MapContext): string | null {
  if (raw === null || raw.trim() === '') return null;
  const text = raw.trim();
  let url: URL;
  try {
    url = text.startsWith('/') ? new URL(text, `${ctx.webBaseUrl.replace(/\/+$/, '')}/`) : new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** The usable ones of a list of links, in order. */
export function externalUrls(raw: readonly string[], ctx: MapContext): string[] {
  return raw.flatMap((r) => {
    const url = externalUrl(r, ctx);
    return url === null ? [] : [url];
  });
}
