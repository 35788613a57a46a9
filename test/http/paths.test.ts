import { describe, expect, it } from 'vitest';
import { routerPath, surfaceOf, surfaceOfPath } from '../../src/http/paths.ts';

// The kill switch, the no-store rule and the metrics all decide by this, so a path it missed
// would bypass the switch.
describe('surfaceOfPath', () => {
  it.each([
    ['/open/v1', 'rest'],
    ['/open/v1/', 'rest'],
    ['/open/v1/topics/:topic_id', 'rest'],
    ['/mcp', 'mcp'],
    ['/mcp/', 'mcp'],
    ['/livez', 'other'],
    ['/readyz', 'other'],
    ['/openapi.json', 'other'],
    ['/open/v10/topics', 'other'],
    ['/mcpx', 'other'],
  ])('%s → %s', (path, surface) => {
    expect(surfaceOfPath(path)).toBe(surface);
  });
});

describe('routerPath reads a request target as the router does', () => {
  it.each([
    ['/open/v1/topics?type=poll', '/open/v1/topics'],
    ['/mcp?x=1', '/mcp'],
    ['/mcp#frag', '/mcp'],
    ['/%6Fpen/v1/me', '/open/v1/me'],
    ['/m%63p', '/mcp'],
    ['/%6fpen/v1/me?x=%41', '/open/v1/me'],
    ['http://gateway.example/open/v1/me', '/open/v1/me'],
    ['https://gateway.example:8443/mcp?x=1', '/mcp'],
    ['http://gateway.example', '/'],
    // An encoded slash stays encoded, for the router too: not a path under /open/v1.
    ['/open%2Fv1/me', '/open%2Fv1/me'],
    // Not decodable: kept as it came (the router refuses it).
    ['/open/v1/%zz', '/open/v1/%zz'],
  ])('%s → %s', (target, path) => {
    expect(routerPath(target)).toBe(path);
  });
});

describe('surfaceOf', () => {
  it('reads a plainly named surface from the target alone, without the route', () => {
    const noRoute = {
      get url(): string | undefined {
        throw new Error('route read');
      },
    };
    for (const [url, surface] of [
      ['/open/v1/me', 'rest'],
      ['/open/v1?x=1', 'rest'],
      ['/mcp', 'mcp'],
      ['/mcp?x=1', 'mcp'],
      ['/mcp/', 'mcp'],
    ] as const) {
      expect(surfaceOf({ url, routeOptions: noRoute })).toBe(surface);
    }
    // A prefix that only looks like one is left to the router's reading.
    expect(surfaceOf({ url: '/mcpx', routeOptions: {} })).toBe('other');
    expect(surfaceOf({ url: '/open/v10/topics', routeOptions: {} })).toBe('other');
  });

  it('takes the matched route over the target, and the decoded target when no route matched', () => {
    expect(surfaceOf({ url: '/%6Fpen/v1/me', routeOptions: { url: '/open/v1/me' } })).toBe('rest');
    expect(surfaceOf({ url: '/m%63p', routeOptions: {} })).toBe('mcp');
    expect(surfaceOf({ url: '/livez', routeOptions: { url: '/livez' } })).toBe('other');
  });
});
