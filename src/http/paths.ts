/** Where the two surfaces live (docs/contract/versioning.md#base-paths: REST under /open/v1; MCP at /mcp on the same host). */
import type { Surface } from '../metrics/metrics.ts';

export const REST_PREFIX = '/open/v1';
export const MCP_PATH = '/mcp';

/** Which surface a request URL belongs to; health, OpenAPI and unknown paths are `other`. */
export function surfaceOf(url: string): Surface {
  const path = url.split('?')[0] ?? '';
  if (path === REST_PREFIX || path.startsWith(`${REST_PREFIX}/`)) return 'rest';
  if (path === MCP_PATH || path.startsWith(`${MCP_PATH}/`)) return 'mcp';
  return 'other';
}
