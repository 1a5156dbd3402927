/** Random identifiers (server/platform/ids.ts): their shape, and that every base62 character is equally likely. */
import { describe, expect, it } from "vitest";
import { newId, randomBase62 } from "../../../server/platform/ids.js";

describe("randomBase62", () => {
  it.each([1, 20, 24, 43, 200])("gives exactly %i base62 characters", (length) => {
    expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });

  it("uses all 62 characters evenly (a modulo bias would favour the first eight by a third)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) for (const char of randomBase62(25)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 500,000 characters: about 8,065 each, with a standard deviation near 89. A plain modulo
    // would put the first eight near 9,770; the bounds sit about eight deviations from chance.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(7_365);
      expect(count).toBeLessThan(8_765);
    }
  });

  it("prefixes ids with their type", () => {
    expect(newId("dom")).toMatch(/^dom_[0-9A-Za-z]{24}$/);
  });
});
