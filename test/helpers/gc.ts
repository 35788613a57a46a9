/** A garbage collection of the given kind now, for tests that count them: `gc` made callable for the caller alone. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectGarbage(type: 'major' | 'minor'): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as (opts: { type: string; execution: 'sync' }) => void)({ type, execution: 'sync' });
}
