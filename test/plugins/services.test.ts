/** The services plugin (src/plugins/services.ts): `app.services`, closed with the app and only then. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import servicesPlugin from '../../src/plugins/services.ts';
import type { Services } from '../../src/services.ts';

describe('services plugin', () => {
  it('exposes the services on the app and closes them after in-app close hooks', async () => {
    const events: string[] = [];
    const services = { close: async () => void events.push('services closed') } as unknown as Services;
    const app = Fastify({ logger: false });
    await app.register(servicesPlugin, { services });
    // A plugin registered later still reaches the same services.
    await app.register(async (child) => {
      child.addHook('onClose', async () => void events.push(child.services === services ? 'child saw services' : 'child saw other'));
    });
    await app.ready();
    expect(app.services).toBe(services);
    expect(events).toEqual([]);
    await app.close();
    expect(events).toContain('child saw services');
    expect(events.at(-1)).toBe('services closed');
  });
});
