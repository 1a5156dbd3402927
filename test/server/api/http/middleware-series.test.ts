/** Several middlewares as one Express layer keep the contract Express gives each (server/api/http/middleware-series.ts). */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { middlewareSeries } from "../../../../server/api/http/middleware-series.js";

const req = {} as Request;
const res = {} as Response;

/** Runs a series and answers what reached its end: "next" or the error passed on. */
function run(...middlewares: RequestHandler[]): Promise<unknown> {
  return new Promise((resolve) => {
    const done: NextFunction = (error?: unknown) => resolve(error === undefined ? "next" : error);
    middlewareSeries(...middlewares)(req, res, done);
  });
}

describe("a series of middlewares", () => {
  it("runs them in order, each going on with next(), then goes on itself", async () => {
    const seen: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        seen.push(n);
        next();
      };
    expect(await run(step(1), step(2), step(3))).toBe("next");
    expect(seen).toEqual([1, 2, 3]);
    expect(await run()).toBe("next");
  });

  it("goes on after an asynchronous middleware calls next() later", async () => {
    const seen: string[] = [];
    const later: RequestHandler = async (_req, _res, next) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      seen.push("later");
      next();
    };
    const after: RequestHandler = (_req, _res, next) => {
      seen.push("after");
      next();
    };
    expect(await run(later, after)).toBe("next");
    expect(seen).toEqual(["later", "after"]);
  });

  it("passes an error on and skips the rest, however it is raised", async () => {
    const failure = new Error("refused");
    let reached = false;
    const rest: RequestHandler = (_req, _res, next) => {
      reached = true;
      next();
    };
    expect(await run((_req, _res, next) => next(failure), rest)).toBe(failure);
    expect(
      await run(() => {
        throw failure;
      }, rest),
    ).toBe(failure);
    expect(await run(async () => Promise.reject(failure), rest)).toBe(failure);
    expect(reached).toBe(false);
  });

  it("turns a promise rejected with nothing into an error, as Express does", async () => {
    const outcome = await run(() => Promise.reject(undefined) as never);
    expect(outcome).toBeInstanceOf(Error);
  });

  it("stops where a middleware answers without calling next()", async () => {
    let reached = false;
    const answered = new Promise<void>((resolve) =>
      middlewareSeries(
        () => resolve(),
        () => {
          reached = true;
        },
      )(req, res, () => {
        reached = true;
      }),
    );
    await answered;
    expect(reached).toBe(false);
  });
});
