/**
 * What of an error may reach a log line. Errors carry more than their message: express-openapi-
 * validator's hold the raw path and query string (`path`, and again in `errors`), body-parser's the
 * raw body, HTTP clients' the URL and headers of their request. pino's own serializer copies every
 * field, so a log would carry them; the logs promise never to hold a raw path, query string, body
 * or header. So errors are logged through this allow-list: the kind of error, its message and
 * stack (what a developer needs), a code and a status, and the same of its cause. Everything else
 * is dropped, whatever its name.
 */
import type { Logger } from "pino";

export interface LoggableError {
  type: string;
  message: string;
  stack?: string;
  /** A system or library code such as ECONNREFUSED, when the error has one. */
  code?: string | number;
  status?: number;
  cause?: LoggableError;
}

/** Causes nest; a cycle or a very long chain ends here. */
const MAX_CAUSES = 5;

function typeOf(error: object): string {
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? name : "Object";
}

export function loggableError(error: unknown, depth = 0): LoggableError {
  if (typeof error !== "object" || error === null) return { type: typeof error, message: String(error) };
  const { message, stack, code, status, cause } = error as Record<string, unknown>;
  const loggable: LoggableError = { type: typeOf(error), message: typeof message === "string" ? message : "" };
  if (typeof stack === "string") loggable.stack = stack;
  if (typeof code === "string" || typeof code === "number") loggable.code = code;
  if (typeof status === "number") loggable.status = status;
  if (cause !== undefined && depth < MAX_CAUSES) loggable.cause = loggableError(cause, depth + 1);
  return loggable;
}

/** The pino options that make `err` go through loggableError. */
export const loggableErrorSerializers = { err: loggableError };

/**
 * A logger whose `err` goes through loggableError, whatever serializers the given one has (createApp
 * takes any pino logger).
 */
export const withLoggableErrors = (logger: Logger): Logger => logger.child({}, { serializers: loggableErrorSerializers });
