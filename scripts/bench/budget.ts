/**
 * The benchmark's time budget. A whole run must end within five minutes on two cores, and most
 * of it has a fixed length: the saturation rounds and the latency rounds run for as long as they
 * are set to, whatever the machine. Two parts can give: each target's warm-up (passes until its
 * JIT settles) and the owner-read latency rounds run again after a stall. Both take only what
 * the budget leaves once the fixed parts still ahead are counted, so a slow machine gets a
 * shorter warm-up (said so in its line) instead of a run that overruns.
 */

/** The fixed part of a run: its rounds, and how many target-scenario runs each round holds. */
export interface TimedPlan {
  /** Runs in one round: every scenario on every target that serves it. */
  runsPerRound: number;
  rounds: number;
  seconds: number;
  rateRounds: number;
  rateSeconds: number;
  leadInSeconds: number;
}

/**
 * Allowed per run for the readings around it: /proc and Redis statistics around a saturation
 * run, and around a latency run also the metrics scrapes, the backend's event-loop record and
 * redis-server's latency monitor. Measured on a slow two-core machine at about 0.02 s and
 * 0.09-0.15 s.
 */
export const SATURATION_RUN_ALLOWANCE_SECONDS = 0.05;
export const RATE_RUN_ALLOWANCE_SECONDS = 0.15;

/** Seconds one latency run takes, with its lead-in and readings. */
export function rateRunSeconds(plan: TimedPlan): number {
  return plan.rateSeconds + plan.leadInSeconds + RATE_RUN_ALLOWANCE_SECONDS;
}

/** Seconds the saturation and latency rounds take together. */
export function timedSeconds(plan: TimedPlan): number {
  const saturation = plan.rounds * plan.runsPerRound * (plan.seconds + SATURATION_RUN_ALLOWANCE_SECONDS);
  return saturation + plan.rateRounds * plan.runsPerRound * rateRunSeconds(plan);
}

/**
 * Seconds the next target may warm up: an even share, among the targets still to warm up, of
 * what the budget leaves after the timed rounds, and never more than `cap`. A target that
 * settles early leaves the rest to those after it.
 */
export function warmUpAllowance(secondsLeft: number, timedAhead: number, targetsLeft: number, cap: number): number {
  if (targetsLeft <= 0) return 0;
  return Math.max(0, Math.min(cap, (secondsLeft - timedAhead) / targetsLeft));
}

/** Whether `extra` seconds of work fit before the budget ends, with `timedAhead` still to come. */
export function fits(secondsLeft: number, timedAhead: number, extra: number): boolean {
  return timedAhead + extra <= secondsLeft;
}
