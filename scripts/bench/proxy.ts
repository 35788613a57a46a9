/**
 * The floor of the benchmark: a bare `@fastify/http-proxy` passthrough to the backend, with
 * nothing of the gateway (no key check, no limits, no validation, no mapping). The load
 * generator sends it the backend's own paths and headers, so what it costs is forwarding alone.
 *
 *   PORT=… UPSTREAM_URL=… LOG_LEVEL=info node scripts/bench/proxy.ts
 */
import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';

const upstream = process.env.UPSTREAM_URL;
if (upstream === undefined) throw new Error('UPSTREAM_URL is required');
const level = process.env.LOG_LEVEL ?? 'info';

// The same request logging as the gateway at the same level, so log lines cost both sides alike.
const app = Fastify({ logger: level === 'silent' ? false : { level } });
await app.register(proxy, { upstream, prefix: '/', http2: false });
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
