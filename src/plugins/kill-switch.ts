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
  app.addHook('onRequest', async function killSwitchGate(request) {
    if (killSwitch.current().mode !== 'all') return;
    if (surfaceOf(request.url) === 'other') return;
    throw new ApiError('SERVICE_DISABLED');
  });
};

export default fp(killSwitchGate, { name: 'openpm-kill-switch', fastify: '5.x' });
