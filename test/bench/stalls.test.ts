import { describe, expect, it } from 'vitest';
import { stalledOutsideTarget } from '../../scripts/bench/stalls.ts';

describe('stalledOutsideTarget', () => {
  it.each([
    [{ backendLoopMaxMs: 3, generatorLoopMaxMs: 2 }, 10, false],
    [{ backendLoopMaxMs: 10, generatorLoopMaxMs: 10 }, 10, false],
    [{ backendLoopMaxMs: 10.5, generatorLoopMaxMs: 1 }, 10, true],
    [{ backendLoopMaxMs: 1, generatorLoopMaxMs: 22 }, 10, true],
    [{ backendLoopMaxMs: 90, generatorLoopMaxMs: 90 }, 0, false],
    [{ backendLoopMaxMs: 6, generatorLoopMaxMs: 1 }, 5, true],
  ])('%o with a threshold of %d ms: %s', (round, stallMs, expected) => {
    expect(stalledOutsideTarget(round, stallMs)).toBe(expected);
  });
});
