/**
 * Tracing's switch, called by src/server.ts before the app is imported. Off (no exporter
 * endpoint configured): nothing is loaded and null comes back. On: the SDK (./sdk.ts) is
 * imported and started, so that the instrumentations patch Fastify, undici and ioredis as the
 * app loads them.
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../config.ts';
import { tracingSettings } from './settings.ts';
import type { Tracing } from './sdk.ts';

export async function startTracing(config: Config): Promise<Tracing | null> {
  const settings = tracingSettings(config);
  if (settings === null) return null;
  const { startSdk } = await import('./sdk.ts');
  return startSdk(settings, packageVersion());
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
