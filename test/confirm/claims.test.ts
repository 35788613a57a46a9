/**
 * The in-memory claim store of the embedded default: the shared behaviour, then on an injected clock: claims and outcomes
 * expire to the millisecond, the periodic sweep drops only what has expired, and a stored
 * outcome is never mistaken for a claim in progress.
 */
import { describe, expect, it } from 'vitest';
import { MemoryClaimStore } from '../../src/confirm/claims.ts';
import { claimStoreBehaviour } from './claims-behaviour.ts';

const outcome = { status: 201, body: { id: 'o1', replayed: false } };

function clocked(t = 1_000) {
  const clock = { t };
  return { clock, store: new MemoryClaimStore(() => clock.t) };
}

{
  const { clock, store } = clocked();
  claimStoreBehaviour('memory', {
    make: () => [store, null],
    pass: async (ms) => {
      clock.t += ms;
    },
  });
}

describe('memory claim store on its clock', () => {
  it('keeps a claim until exactly its TTL, then grants it again', async () => {
    const { clock, store } = clocked();
    expect(await store.claim('j', 500, 'a')).toEqual({ state: 'acquired' });
    clock.t += 499;
    expect(await store.claim('j', 500, 'b')).toEqual({ state: 'pending' });
    expect(await store.peek('j')).toEqual({ state: 'pending' });
    clock.t += 1;
    expect(await store.peek('j')).toBeNull();
    expect(await store.claim('j', 500, 'b')).toEqual({ state: 'acquired' });
  });

  it('keeps an outcome for its own TTL, counted from when it was stored', async () => {
    const { clock, store } = clocked();
    await store.claim('j', 100, 'a');
    clock.t += 90;
    await store.complete('j', outcome, 1_000);
    clock.t += 999;
    expect(await store.claim('j', 100, 'b')).toEqual({ state: 'done', outcome });
    clock.t += 1;
    expect(await store.peek('j')).toBeNull();
  });

  it('keeps outcome headers through storage', async () => {
    const { store } = clocked();
    const refused = { status: 409, body: { error: { code: 'TOPIC_CLOSED', message: 'closed' } }, headers: { 'retry-after': '1' } };
    await store.claim('j', 100, 'a');
    await store.complete('j', refused, 1_000);
    expect(await store.peek('j')).toEqual({ state: 'done', outcome: refused });
  });

  it('does not release a claim that has expired and been taken by someone else', async () => {
    const { clock, store } = clocked();
    await store.claim('j', 100, 'a');
    clock.t += 100;
    await store.claim('j', 100, 'b');
    await store.release('j', 'a');
    expect(await store.peek('j')).toEqual({ state: 'pending' });
  });

  it('sweeps only expired entries when it runs, however many there are', async () => {
    const { clock, store } = clocked();
    await store.claim('live', 1_000_000, 'a');
    await store.claim('done', 1_000_000, 'a');
    await store.complete('done', outcome, 1_000_000);
    for (let i = 0; i < 1100; i++) {
      await store.claim(`short-${i}`, 10, 'x');
      clock.t += 1;
    }
    expect(await store.peek('live')).toEqual({ state: 'pending' });
    expect(await store.peek('done')).toEqual({ state: 'done', outcome });
    expect(await store.peek('short-1099')).toEqual({ state: 'pending' });
    expect(await store.peek('short-0')).toBeNull();
  });
});
