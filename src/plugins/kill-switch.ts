/**
 * The kill switch's gate on the public surfaces: while the switch is fully on (mode `all`),
 * every request to /open/v1 and /mcp is refused with 503 SERVICE_DISABLED before anything else
 * runs, so a disabled service costs the backend and Redis nothing
 * (docs/contract/limits.md#kill-switch). Health, the OpenAPI document and the docs page still
 * answer. The `writes` mode is the pipeline's to apply (src/operations/invoke.ts), per operation.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors/api-error.ts';
import { surfaceOf } from '../http/paths.ts';
import type { KillSwitch } from '../killswitch/index.ts';

export interface KillSwitchGateOptions {
  /** Read on every request: the switch answers from memory, kept current in the background. */
  killSwitch: Pick<KillSwitch, 'current'>;
}

const killSwitchGate: FastifyPluginAsync<KillSwitchGateOptions> = async (app, opts) => {
  const { killSwitch } = opts;
  // Callback style, as every hook that waits for nothing (docs/performance.md, kept optimisations).
  app.addHook('onRequest', function killSwitchGate(request, _reply, done) {
    if (killSwitch.current().mode === 'all' && surfaceOf(request) !== 'other') {
      done(new ApiError('SERVICE_DISABLED'));
      return;
    }
    done();
  });
};

export default fp(killSwitchGate, { name: 'openpm-kill-switch', fastify: '5.x' });
