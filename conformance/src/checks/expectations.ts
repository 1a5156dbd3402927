/** Expectations the checks share, failing with the answer that broke them. */
import { expect } from "expect";
import type { CallResult } from "../contract-client.js";

/** Fails with every way the answer breaks the published document, named precisely. */
export function expectConforming(result: CallResult): void {
  if (result.violations.length) throw new Error(result.violations.join("\n"));
}

/** Fails unless the answer has `status`, showing the body it came with. */
export function expectStatus(result: CallResult, status: number | number[], why = ""): void {
  const expected = Array.isArray(status) ? status : [status];
  if (!expected.includes(result.status))
    throw new Error(
      `${result.label}${why ? ` (${why})` : ""} answered ${result.status}, expected ${expected.join(" or ")}: ${JSON.stringify(result.body)?.slice(0, 400)}`,
    );
}

/** Conforms, has `status`, and (if given) a body matching `shape`. */
export function expectAnswer(result: CallResult, status: number | number[], shape?: Record<string, unknown>, why = ""): void {
  expectConforming(result);
  expectStatus(result, status, why);
  if (shape) expect(result.body).toMatchObject(shape);
}

/** The coded error shape with exactly this status, `error` and (when given) `details.field` and `details.code`. */
export function expectCoded(result: CallResult, status: number, error: string, field?: string, code?: string, why = ""): void {
  expectConforming(result);
  expectStatus(result, status, why);
  const details = { ...(field === undefined ? {} : { field }), ...(code === undefined ? {} : { code }) };
  expect({ label: `${result.label}${why ? ` (${why})` : ""}`, body: result.body }).toMatchObject({
    body: { error, message: expect.any(String), ...(Object.keys(details).length ? { details } : {}) },
  });
}
