import type { Services } from '../services.ts';

/** The finer kill switch: `writes` refuses the six write operations, reads keep serving. */
export function writesDisabled(services: Pick<Services, 'killSwitch'>): boolean {
  return services.killSwitch.current().mode === 'writes';
}
