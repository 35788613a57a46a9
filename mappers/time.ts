/** Epoch milliseconds → RFC 3339 UTC (docs/contract/resources.md#timestamps). */

/** 9999-12-31T23:59:59.999Z: the last instant RFC 3339 can write (its year has four digits). */
const MAX_RFC3339_MS = 253_402_300_799_999;

/**
 * The instant as `YYYY-MM-DDTHH:mm:ss.sssZ`. The backend schema bounds epochs only below, so a
 * corrupt far-future value is clamped to the last writable instant instead of throwing (Date
 * throws past year 275760) or printing an expanded year that is not RFC 3339.
 */
export function toTimestamp(epochMs: number): string {
  return new Date(Math.min(Math.max(epochMs, 0), MAX_RFC3339_MS)).toISOString();
}
