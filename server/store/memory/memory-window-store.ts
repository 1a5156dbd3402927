/** The in-memory adapter of window-store (server/platform/rate-limits/window-store.ts): the default of `npm start` and of most tests. */
import type { WindowCounter, ConsumeResult, WindowStore } from "../../platform/rate-limits/window-store.js";

/**
 * One entry per key and bucket, overwritten when its window passes. Keys come and go (a throttle
 * keys each address and client it sees), so the sweep forgets those of ended windows.
 */
export class MemoryWindowStore implements WindowStore {
  private readonly entries = new Map<string, { windowStart: number; count: number }>();

  peek(counters: readonly WindowCounter[]): number[] {
    return counters.map(({ key, windowStart }) => {
      const entry = this.entries.get(key);
      return entry && entry.windowStart === windowStart ? entry.count : 0;
    });
  }

  consume(counters: readonly WindowCounter[]): ConsumeResult {
    const current = this.peek(counters);
    const refused = counters.flatMap((counter, i) => (current[i]! >= counter.limit ? [i] : []));
    if (refused.length > 0) return { counts: current, refused };
    counters.forEach(({ key, windowStart }, i) => this.entries.set(key, { windowStart, count: current[i]! + 1 }));
    return { counts: current.map((count) => count + 1), refused };
  }

  forget(scope: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${scope}:`)) this.entries.delete(key);
  }

  forgetWindowsBefore(windowStart: number): void {
    for (const [key, entry] of this.entries) if (entry.windowStart < windowStart) this.entries.delete(key);
  }
}
