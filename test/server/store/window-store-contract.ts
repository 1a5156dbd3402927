/**
 * What every store promises of rate-limit counters (platform/rate-limits/window-store.ts): a request
 * counts in every counter or, when any is full, in none. Run inside the store contract
 * (store-contract.ts) on memory, PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { Persistence } from "../../../server/store/persistence.js";
import { uniqueId } from "./store-contract.js";

export function describeWindowStore(persistenceOf: () => Persistence): void {
  describe("rate-limit counters", () => {
    const counters = (scope: string, windowStart: number, limits: [number, number]) => [
      { key: `${scope}:a`, windowStart, limit: limits[0] },
      { key: `${scope}:b`, windowStart, limit: limits[1] },
    ];

    it("count a request in every counter and answer the counts after it", async () => {
      const store = persistenceOf().rateLimits;
      const scope = uniqueId("scope");
      expect(await store.consume(counters(scope, 1000, [5, 3]))).toEqual({ counts: [1, 1], refused: [] });
      expect(await store.consume(counters(scope, 1000, [5, 3]))).toEqual({ counts: [2, 2], refused: [] });
      expect(await store.peek(counters(scope, 1000, [5, 3]))).toEqual([2, 2]);
    });

    it("count a refused request in none, answering the counts before it and which counters are full", async () => {
      const store = persistenceOf().rateLimits;
      const scope = uniqueId("scope");
      for (let i = 0; i < 2; i++) await store.consume(counters(scope, 1000, [5, 2]));
      expect(await store.consume(counters(scope, 1000, [5, 2]))).toEqual({ counts: [2, 2], refused: [1] });
      expect(await store.consume(counters(scope, 1000, [2, 2]))).toEqual({ counts: [2, 2], refused: [0, 1] });
      expect(await store.peek(counters(scope, 1000, [5, 2]))).toEqual([2, 2]);
      // The counter that had room still has it: one more fits it alone.
      expect(await store.consume([{ key: `${scope}:a`, windowStart: 1000, limit: 5 }])).toEqual({ counts: [3], refused: [] });
    });

    it("start a counter again in a new window, and read an ended window's count as 0", async () => {
      const store = persistenceOf().rateLimits;
      const scope = uniqueId("scope");
      for (let i = 0; i < 3; i++) await store.consume(counters(scope, 1000, [3, 3]));
      expect(await store.consume(counters(scope, 1000, [3, 3]))).toEqual({ counts: [3, 3], refused: [0, 1] });
      expect(await store.peek(counters(scope, 2000, [3, 3]))).toEqual([0, 0]);
      expect(await store.consume(counters(scope, 2000, [3, 3]))).toEqual({ counts: [1, 1], refused: [] });
    });

    it("never let more requests through than the limit when they come all at once", async () => {
      const store = persistenceOf().rateLimits;
      const scope = uniqueId("scope");
      const answers = await Promise.all(Array.from({ length: 30 }, () => store.consume(counters(scope, 1000, [100, 12]))));
      expect(answers.filter((answer) => answer.refused.length === 0)).toHaveLength(12);
      expect(await store.peek(counters(scope, 1000, [100, 12]))).toEqual([12, 12]);
    });
  });
}
