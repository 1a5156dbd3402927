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
