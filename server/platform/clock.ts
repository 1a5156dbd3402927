/** The server reads time only through a Clock, so the sandbox and the tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = "2026-11-22T10:00:00Z") {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
  set(date: Date | string): void {
    this.current = new Date(date).getTime();
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Adds whole calendar years in UTC (29 February falls back to 28 February). */
export function addYears(date: Date, years: number): Date {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + years);
  if (next.getUTCDate() !== date.getUTCDate()) next.setUTCDate(0);
  return next;
}

/** The last millisecond of year 9999: the last time written in four-digit years. */
export const LAST_FOUR_DIGIT_YEAR = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => (n < 10 ? `0${n}` : `${n}`));

/** Days since 1970-01-01 as `YYYY-MM-DD`, proleptic Gregorian (Howard Hinnant's days-to-civil, in 400-year eras starting on 1 March). */
function civilDate(days: number): string {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`;
}

/**
 * The date part of each day formatted, with its `T`: the dates of an answer fall on few days (a
 * page of users holds two per user), so most are a lookup. Bounded, so a caller sending dates from
 * ever-new days cannot grow it; emptied when full, which only costs recomputing.
 */
const dayPrefixes = new Map<number, string>();
const MAX_DAY_PREFIXES = 4096;

function dayPrefix(days: number): string {
  let prefix = dayPrefixes.get(days);
  if (prefix === undefined) {
    if (dayPrefixes.size >= MAX_DAY_PREFIXES) dayPrefixes.clear();
    dayPrefixes.set(days, (prefix = `${civilDate(days)}T`));
  }
  return prefix;
}

/** `YYYY-MM-DDTHH:MM:SS` of a time in years 0 to 9999, which both formats below begin with. */
function toTheSecond(milliseconds: number): string {
  const days = Math.floor(milliseconds / DAY);
  const seconds = Math.floor((milliseconds - days * DAY) / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${dayPrefix(days)}${TWO_DIGITS[Math.floor(minutes / 60)]}:${TWO_DIGITS[minutes % 60]}:${TWO_DIGITS[seconds % 60]}`;
}

const inFourDigitYears = (milliseconds: number) => milliseconds >= 0 && milliseconds <= LAST_FOUR_DIGIT_YEAR;

/**
 * ISO 8601 without milliseconds, as the examples in the spec show. Every date of every answer goes
 * through here, and `toISOString` plus a regular expression was a large share of a list request in
 * CPU profiles; the calendar arithmetic, once per day, and a table of two-digit numbers are much
 * cheaper (bench/results/). Years outside 0 to 9999 keep ISO's extended form.
 */
export function timestamp(date: Date): string {
  const milliseconds = date.getTime();
  return inFourDigitYears(milliseconds) ? `${toTheSecond(milliseconds)}Z` : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** What `toISOString` gives (milliseconds included), at a fraction of its cost: entity tags format every date of the rows they hash. */
export function isoTimestamp(date: Date): string {
  const milliseconds = date.getTime();
  if (!inFourDigitYears(milliseconds)) return date.toISOString();
  const fraction = milliseconds % 1000;
  return `${toTheSecond(milliseconds)}.${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}Z`;
}

const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([Zz])|([+-])(\d\d)(?::?(\d\d))?)$/;

/**
 * An RFC 3339 date-time as the request validator accepts it (format `date-time`), which `new Date`
 * does not always read: `t` and `z` in lower case, a space for the `T`, offsets without a colon or
 * minutes (`+0100`, `+01`), a leap second (`23:59:60` in UTC, read as the second after 23:59:59).
 * Null for anything else, an impossible day or time included.
 */
export function parseDateTime(text: string): Date | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const milliseconds = match[7] ? Math.floor(Number(`0.${match[7]}`) * 1000) : 0;
  const sign = match[9] === "-" ? -1 : 1;
  const offsetMinutes = match[8] ? 0 : sign * (Number(match[10]) * 60 + Number(match[11] ?? 0));
  const leap = second === 60;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour > 23 ||
    minute > 59 ||
    second > 60 ||
    Number(match[10] ?? 0) > 23 ||
    Number(match[11] ?? 0) > 59
  )
    return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, leap ? 59 : second, milliseconds);
  // Date.UTC rolls an impossible day over (31 April is 1 May): compare to refuse it.
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const utc = local - offsetMinutes * 60_000;
  if (leap) {
    // A leap second exists only as the last second of a UTC day.
    const atUtc = new Date(utc);
    if (atUtc.getUTCHours() !== 23 || atUtc.getUTCMinutes() !== 59) return null;
  }
  const date = new Date(utc + (leap ? 1000 : 0));
  return Number.isNaN(date.getTime()) ? null : date;
}
