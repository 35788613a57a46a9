/** Epoch milliseconds → RFC 3339 UTC (docs/contract/resources.md#timestamps). */

/** 9999-12-31T23:59:59.999Z: the last instant RFC 3339 can write (its year has four digits). */
const MAX_RFC3339_MS = 253_402_300_799_999;

const DAY_MS = 86_400_000;
/** '00'…'99' and '000'…'999': the fields are looked up, not padded. */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * The instant as `YYYY-MM-DDTHH:mm:ss.sssZ`. The backend schema bounds epochs only below, so a
 * corrupt far-future value is clamped to the last writable instant instead of throwing (Date
 * throws past year 275760) or printing an expanded year that is not RFC 3339.
 *
 * The text is what `Date#toISOString` prints (test/mappers/time.test.ts holds them equal), put
 * together by arithmetic because lists print one or more per item and the Date route costs
 * about ten times as much (docs/performance.md).
 */
export function toTimestamp(epochMs: number): string {
  const ms = Math.min(Math.max(epochMs, 0), MAX_RFC3339_MS);
  // The backend's epochs are whole milliseconds (EpochMs); anything else takes Date's own rules.
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  const { year, month, day } = civilDate(days);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  // Years from 1970 to 9999 (the clamp above) always have four digits.
  return `${year}-${TWO[month]}-${TWO[day]}T${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[rest - seconds * 1000]}Z`;
}

/**
 * The proleptic Gregorian date `days` after 1970-01-01 (days ≥ 0), counted in 400-year eras of
 * 146,097 days from 0000-03-01, so that the leap day ends each counted year.
 */
function civilDate(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153); // 0 is March
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return {
    year: era * 400 + yearOfEra + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1,
  };
}
