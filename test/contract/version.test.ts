/**
 * One contract version: src/contract/version.ts. The OpenAPI document, MCP's serverInfo and the
 * Helm chart's annotation carry it, and no other source file writes it out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_VERSION } from '../../src/contract/version.ts';
import { SERVER_INFO } from '../../src/surfaces/mcp/protocol.ts';
import { buildOpenApi } from '../../src/surfaces/rest/openapi.ts';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(new URL(dir, ROOT), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|json)$/.test(entry.name) ? [path] : [];
  });
}

describe('the contract version', () => {
  it('is a semantic version', () => {
    expect(CONTRACT_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is the OpenAPI document’s and MCP’s serverInfo’s', () => {
    expect((buildOpenApi([]) as { info: { version: string } }).info.version).toBe(CONTRACT_VERSION);
    expect(SERVER_INFO.version).toBe(CONTRACT_VERSION);
  });

  it('is the Helm chart’s annotation and the one its description names', () => {
    const chart = parse(read('helm/openpm-gateway/Chart.yaml')) as { description: string; annotations: Record<string, string> };
    expect(chart.annotations['openpm/contract-version']).toBe(CONTRACT_VERSION);
    expect(chart.description).toContain(`contract ${CONTRACT_VERSION}`);
  });

  it('is written out in no other source file', () => {
    const writers = [...sourceFiles('src'), ...sourceFiles('mappers')].filter(
      (path) =>
        read(path).includes(`'${CONTRACT_VERSION}'`) ||
        read(path).includes(`"${CONTRACT_VERSION}"`) ||
        read(path).includes(`version ${CONTRACT_VERSION}`),
    );
    expect(writers).toEqual(['src/contract/version.ts']);
  });
});
