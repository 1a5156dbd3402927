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

/** ISO 8601 without milliseconds, as the examples in the spec show. */
export const timestamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

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
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60 || Number(match[10] ?? 0) > 23 || Number(match[11] ?? 0) > 59) return null;
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
