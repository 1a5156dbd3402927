/** Every response carries X-Request-Id, so a partner can quote it when asking for support. */
import type { RequestHandler } from "express";
import { randomBase62 } from "../../platform/ids.js";

export const assignRequestId: RequestHandler = (_req, res, next) => {
  res.locals.requestId = `req_${randomBase62(20)}`;
  res.setHeader("X-Request-Id", res.locals.requestId);
  next();
};
