/** SortedKeys against a plain sort of the same keys, under random inserts, updates and removals. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SortedKeys } from "../../../server/store/memory/sorted-keys.js";

describe("SortedKeys", () => {
  it("pages exactly as sorting everything would, whatever the sequence of changes", () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), key: fc.integer({ min: 0, max: 3000 }), value: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant("delete" as const), key: fc.integer({ min: 0, max: 3000 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 3000 }),
        fc.nat(3000),
        fc.integer({ min: 1, max: 1200 }),
        (operations, offset, limit) => {
          const values = new Map<number, number>();
          const compare = (a: number, b: number) => values.get(b)! - values.get(a)! || a - b;
          const index = new SortedKeys<number>(compare);
          for (const op of operations) {
            if (values.has(op.key)) index.remove(op.key);
            if (op.kind === "set") {
              values.set(op.key, op.value);
              index.insert(op.key);
            } else values.delete(op.key);
          }
          const expected = [...values.keys()].sort(compare);
          expect(index.size).toBe(expected.length);
          expect(index.page(offset, limit)).toEqual(expected.slice(offset, offset + limit));
        },
      ),
      { seed: 11, numRuns: 60 },
    );
  });

  it("pages after any key, held or not, exactly as filtering the sorted keys would", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 3000 }),
        fc.integer({ min: -1, max: 5001 }),
        fc.integer({ min: 1, max: 1200 }),
        (keys, after, limit) => {
          const index = new SortedKeys<number>((a, b) => a - b);
          for (const key of keys) index.insert(key);
          const expected = [...keys].sort((a, b) => a - b).filter((key) => key > after);
          expect(index.after(after, limit)).toEqual(expected.slice(0, limit));
        },
      ),
      { seed: 23, numRuns: 100 },
    );
  });

  it("pages after any place in the order, among keys of equal values across chunks, as filtering the sorted keys would", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 3000 }),
        fc.integer({ min: -1, max: 6 }),
        fc.integer({ min: -1, max: 5001 }),
        fc.integer({ min: 1, max: 1200 }),
        (keys, placeValue, placeKey, limit) => {
          // Few values, so each is shared by keys in several chunks: the place falls among them.
          const value = (key: number) => key % 5;
          const index = new SortedKeys<number>((a, b) => value(b) - value(a) || a - b);
          for (const key of keys) index.insert(key);
          const fromPlace = (key: number) => placeValue - value(key) || key - placeKey;
          const expected = [...keys].sort((a, b) => value(b) - value(a) || a - b).filter((key) => fromPlace(key) > 0);
          expect(index.following(fromPlace, limit)).toEqual(expected.slice(0, limit));
        },
      ),
      { seed: 37, numRuns: 100 },
    );
  });

  it("holds 20,000 keys across many chunks, through updates that move keys between them", () => {
    const values = new Map<number, number>();
    const compare = (a: number, b: number) => values.get(a)! - values.get(b)! || a - b;
    const index = new SortedKeys<number>(compare);
    for (let key = 0; key < 20_000; key++) {
      values.set(key, (key * 7919) % 1000);
      index.insert(key);
    }
    for (let key = 0; key < 20_000; key += 3) {
      index.remove(key);
      values.set(key, (key * 104729) % 997);
      index.insert(key);
    }
    for (let key = 1; key < 20_000; key += 5) {
      index.remove(key);
      values.delete(key);
    }
    const expected = [...values.keys()].sort(compare);
    expect(index.size).toBe(expected.length);
    expect(index.page(0, expected.length)).toEqual(expected);
    expect(index.page(9_999, 250)).toEqual(expected.slice(9_999, 10_249));
  });
});
