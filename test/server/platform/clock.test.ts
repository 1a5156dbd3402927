/** timestamp(): the one formatter of every date in every answer (server/platform/clock.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { timestamp } from "../../../server/platform/clock.js";

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

describe("timestamp", () => {
  it("formats as toISOString does, without the milliseconds, across and beyond four-digit years", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(Date.UTC(-271_000, 0, 1)), max: new Date(Date.UTC(275_000, 0, 1)), noInvalidDate: true }),
        (date) => {
          expect(timestamp(date)).toBe(iso(date));
        },
      ),
      { numRuns: 20_000, seed: 20261123 },
    );
  });

  it.each([
    "1970-01-01T00:00:00.000Z",
    "1969-12-31T23:59:59.999Z",
    "0000-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
    "+010000-01-01T00:00:00.000Z",
    "2000-02-29T12:34:56.789Z",
    "1900-02-28T23:59:59.000Z",
    "1900-03-01T00:00:00.000Z",
    "2100-03-01T00:00:00.000Z",
    "2026-12-31T23:59:59.999Z",
  ])("%s: the edges of the arithmetic (epoch, eras, leap and non-leap centuries)", (text) => {
    const date = new Date(text);
    expect(timestamp(date)).toBe(iso(date));
  });
});
