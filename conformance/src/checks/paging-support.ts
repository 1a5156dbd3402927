/** Walking the lists of the API page by page, and what every walk must show. */
import { expect } from "expect";
import type { CheckContext } from "../check.js";
import type { CallInput, CallResult } from "../contract-client.js";
import { expectAnswer } from "./expectations.js";

/** A list longer than this many pages is a cursor that never ends. */
const MAX_PAGES = 200;

export interface Walk {
  items: any[];
  pages: CallResult[];
}

/** Follows `next_cursor` from the first page to the one whose `next_cursor` is null. */
export async function walkByCursor(
  context: CheckContext,
  operationId: string,
  input: CallInput,
  itemsKey: string,
  limit: number,
): Promise<Walk> {
  const walk: Walk = { items: [], pages: [] };
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = { ...input.query, limit, ...(cursor === null ? {} : { cursor }) };
    const result = await context.api.call(operationId, { ...input, query });
    expectAnswer(result, 200, undefined, `page ${page + 1} with limit ${limit}`);
    const items = result.body[itemsKey] as any[];
    if (items.length > limit) throw new Error(`${result.label} answered ${items.length} items for limit ${limit}`);
    walk.pages.push(result);
    walk.items.push(...items);
    cursor = result.body.next_cursor ?? null;
    if (cursor === null) return walk;
    if (items.length < limit) throw new Error(`${result.label} answered a page of ${items.length} (limit ${limit}) and yet a next_cursor`);
  }
  throw new Error(`${operationId} still had a next_cursor after ${MAX_PAGES} pages`);
}

/** Walks by `offset` in steps of `limit`, to `total` or `maxItems`, whichever is first. */
export async function walkByOffset(
  context: CheckContext,
  operationId: string,
  input: CallInput,
  itemsKey: string,
  limit: number,
  maxItems = Infinity,
): Promise<Walk> {
  const walk: Walk = { items: [], pages: [] };
  for (let offset = 0; ; offset += limit) {
    const result = await context.api.call(operationId, { ...input, query: { ...input.query, limit, offset } });
    expectAnswer(result, 200, undefined, `the page at offset ${offset}, limit ${limit}`);
    expect({ limit: result.body.limit, offset: result.body.offset }).toEqual({ limit, offset });
    const items = result.body[itemsKey] as any[];
    const expected = Math.max(0, Math.min(limit, result.body.total - offset));
    if (items.length !== expected)
      throw new Error(
        `${result.label} at offset ${offset}, limit ${limit} answered ${items.length} items of a total of ${result.body.total} (expected ${expected})`,
      );
    walk.pages.push(result);
    walk.items.push(...items);
    if (offset + limit >= result.body.total || walk.items.length >= maxItems) return walk;
  }
}

/** Fails unless no item appears twice (by `key`). */
export function expectNoDuplicates(items: any[], key: (item: any) => string, what: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    const id = key(item);
    if (seen.has(id)) throw new Error(`${what}: ${id} appears twice across the pages`);
    seen.add(id);
  }
}

/** Fails unless the pages, joined, are the whole list: no gap, no duplicate, same order. */
export function expectSameList(paged: any[], whole: any[], key: (item: any) => string, what: string): void {
  expectNoDuplicates(paged, key, what);
  const missing = whole.map(key).filter((id) => !paged.some((item) => key(item) === id));
  if (missing.length) throw new Error(`${what}: the pages skip ${missing.join(", ")}`);
  expect(paged.map(key)).toEqual(whole.map(key));
}

/** Fails unless every limit outside 1..max is refused with 400. */
export async function expectLimitBounds(context: CheckContext, operationId: string, input: CallInput, max: number): Promise<void> {
  for (const limit of [0, max + 1]) {
    const result = await context.api.call(operationId, { ...input, query: { ...input.query, limit } });
    expectAnswer(result, 400, undefined, `limit ${limit} is outside 1 to ${max}`);
  }
}
