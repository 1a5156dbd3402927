/**
 * Integer query parameters are plain decimal digits (the spec's "Bounds and limits of requests").
 * The validator reads query values with JavaScript's Number, which also takes `0x10`, `1e2`,
 * ` 5 `, `+5` and `Infinity`; refusing every other spelling first leaves it only the bounds.
 */
import type { RequestHandler } from "express";
import { apiErrors } from "../../platform/errors.js";
import { operationOf } from "./operation-match.js";

const DECIMAL_DIGITS = /^[0-9]+$/;

export const checkIntegerQuery: RequestHandler = (req, res, next) => {
  const names = operationOf(res.locals)?.info.integerQueryParameters ?? [];
  for (const name of names) {
    const value = (req.query as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (typeof value !== "string") return next(apiErrors.badRequest(name, "invalid_type", `${name} must be given once, as an integer`));
    if (!DECIMAL_DIGITS.test(value))
      return next(apiErrors.badRequest(name, "invalid_type", `${name} must be an integer written in decimal digits`));
  }
  next();
};
