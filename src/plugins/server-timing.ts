/**
 * `Server-Timing: gw;dur=<ms>, upstream;dur=<ms>` on every REST and MCP answer
 * (docs/operations.md#server-timing): `upstream` is the time the request's backend calls took,
 * summed (src/upstream/timing.ts); `gw` is the rest of the time the gateway held the request
 * (its own work, Redis and queueing), never below 0. Calls made side by side can sum to more
 * than the request took; `gw` then reads 0. SERVER_TIMING=off leaves the plugin out.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { surfaceOf } from '../http/paths.ts';
import { countingUpstream, type UpstreamTally } from '../upstream/timing.ts';

/** The header's value for a request that took `totalMs`, `upstreamMs` of it in backend calls. */
export function serverTimingValue(totalMs: number, upstreamMs: number): string {
  const gw = Math.max(0, totalMs - upstreamMs);
  return `gw;dur=${gw.toFixed(1)}, upstream;dur=${upstreamMs.toFixed(1)}`;
}

const serverTiming: FastifyPluginAsync = async (app) => {
  const tallies = new WeakMap<FastifyRequest, UpstreamTally>();
  // Callback style: the rest of the request's hooks and its handler run inside the tally.
  app.addHook('onRequest', function openTally(request, _reply, done) {
    if (surfaceOf(request) === 'other') return done();
    const tally: UpstreamTally = { ms: 0 };
    tallies.set(request, tally);
    countingUpstream(tally, done);
  });
  app.addHook('onSend', function writeServerTiming(request, reply, payload, done) {
    const tally = tallies.get(request);
    if (tally !== undefined) reply.header('server-timing', serverTimingValue(reply.elapsedTime, tally.ms));
    done(null, payload);
  });
};

export default fp(serverTiming, { name: 'openpm-server-timing', fastify: '5.x' });
