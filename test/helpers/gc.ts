/** Garbage collections on demand, for tests that count them, and a wait for their metric. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectGarbage(type: 'major' | 'minor'): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as (opts: { type: string; execution: 'sync' }) => void)({ type, execution: 'sync' });
}

/**
 * Reads `read()` until `done` says so (at most about half a second): Node hands `gc` entries to
 * the metrics' observer a moment after the collection, so a count is not up to date at once.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 100 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    value = await read();
  }
  return value;
}
