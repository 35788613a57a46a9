import { describe, expect, it } from 'vitest';
import {
  RATE_RUN_ALLOWANCE_SECONDS,
  SATURATION_RUN_ALLOWANCE_SECONDS,
  fits,
  rateRunSeconds,
  timedSeconds,
  warmUpAllowance,
} from '../../scripts/bench/budget.ts';

// The default run: seven scenarios, 17 target-scenario runs a round.
const plan = { runsPerRound: 17, rounds: 3, seconds: 3, rateRounds: 3, rateSeconds: 1, leadInSeconds: 0.2 };

describe('the benchmark time budget', () => {
  it('counts every run of both kinds of rounds with its readings', () => {
    const [sat, rate] = [SATURATION_RUN_ALLOWANCE_SECONDS, RATE_RUN_ALLOWANCE_SECONDS];
    expect(rateRunSeconds(plan)).toBeCloseTo(1.2 + rate, 9);
    expect(timedSeconds(plan)).toBeCloseTo(3 * 17 * (3 + sat) + 3 * 17 * (1.2 + rate), 9);
    expect(timedSeconds({ ...plan, rateRounds: 0 })).toBeCloseTo(3 * 17 * (3 + sat), 9);
    expect(timedSeconds({ ...plan, rounds: 0 })).toBeCloseTo(3 * 17 * (1.2 + rate), 9);
  });

  it.each([
    // seconds left, timed ahead, targets left, cap, allowance
    [280, 220, 3, 25, 20],
    [280, 220, 2, 25, 25],
    [280, 220, 1, 25, 25],
    [230, 220, 2, 25, 5],
    [210, 220, 3, 25, 0],
    [280, 220, 0, 25, 0],
  ])('%d s left, %d s of rounds ahead, %d target(s) to warm up, cap %d s: %d s', (left, ahead, targets, cap, expected) => {
    expect(warmUpAllowance(left, ahead, targets, cap)).toBeCloseTo(expected, 9);
  });

  it.each([
    [10, 8, 2, true],
    [10, 8, 2.01, false],
    [10, 11, 0, false],
  ])('with %d s left and %d s ahead, %d s more fits: %s', (left, ahead, extra, expected) => {
    expect(fits(left, ahead, extra)).toBe(expected);
  });
});
