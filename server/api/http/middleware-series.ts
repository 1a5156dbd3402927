/**
 * Several middlewares as one: Express's router pays for every layer it passes a request through
 * (matching the layer's path, trimming it, looking for parameters, its own `next`), and the
 * request pipeline before the validator is ten layers that all match every path: in CPU profiles
 * of the read the router was a larger cost than most of them (bench/results/profiles/). As one
 * layer they run in the same order with the same contract Express 5 gives each: `next()` goes on,
 * `next(error)` (or a throw, or a rejected promise) goes to the error handlers and skips the rest.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";

export function middlewareSeries(...middlewares: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    // Express passes errors on as they are; "route" and "router" mean leaving this pipeline too.
    const next: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null) return done(error);
      const middleware = middlewares[index++];
      if (middleware === undefined) return done();
      try {
        const result = middleware(req, res, next) as { then?: unknown } | undefined;
        // As Express's own layers: a promise that rejects is an error, even one rejected with nothing.
        if (typeof result?.then === "function")
          (result as Promise<unknown>).then(undefined, (reason: unknown) => done(reason ?? new Error("Rejected promise")));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
