import { describe, expect, it } from 'vitest';
import { surfaceOf } from '../../src/http/paths.ts';

// The kill switch and the metrics both decide by this, so a path it missed would bypass the switch.
describe('surfaceOf', () => {
  it.each([
    ['/open/v1', 'rest'],
    ['/open/v1/topics?type=poll', 'rest'],
    ['/open/v1/', 'rest'],
    ['/mcp', 'mcp'],
    ['/mcp/', 'mcp'],
    ['/mcp?x=1', 'mcp'],
    ['/livez', 'other'],
    ['/readyz', 'other'],
    ['/openapi.json', 'other'],
    ['/open/v10/topics', 'other'],
    ['/mcpx', 'other'],
  ])('%s → %s', (url, surface) => {
    expect(surfaceOf(url)).toBe(surface);
  });
});
