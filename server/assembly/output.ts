/**
 * What `npm start` writes, and how it stops on a line of its own. Its output may be a pipe whose
 * reader is gone (`npm start | head -1`, once head has exited): every write then fails with EPIPE.
 * That must neither crash the server (a console write's EPIPE is an unhandled 'error' event) nor
 * hang it: pino's asynchronous destination flushes synchronously on exit and retries EPIPE forever,
 * so the process never ended and, its thread blocked, a second signal could not end it either.
 */
import { writeSync } from "node:fs";
import { pino, type LevelWithSilent, type Logger } from "pino";
import { loggableErrorSerializers } from "../api/http/loggable-error.js";

/** Lets writes to a closed standard output or error fail quietly; other stream errors still surface. */
export function tolerateClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
}

/** The server's logger, and the end of start-up, when the lines it logged meanwhile come out. */
export interface StartupLogger {
  logger: Logger;
  /** Writes the lines held so far, and every later one as it is logged; at exit at the latest. */
  releaseHeldLines(): void;
}

/**
 * JSON lines on standard output, written synchronously: nothing is left to flush at exit, and a
 * closed pipe stops the logging (pino drops the destination on EPIPE) instead of the process.
 * Lines logged while the server starts are held until its human banner is out, which they would
 * otherwise split (the start-up's own lines, the request of the demo session it opens).
 */
export function stdoutLogger(level: LevelWithSilent): StartupLogger {
  const destination = pino.destination({ dest: 1, sync: true });
  let held: string[] | null = [];
  const releaseHeldLines = () => {
    if (held === null) return;
    const lines = held;
    held = null;
    for (const line of lines) destination.write(line);
  };
  // A start that fails before its banner still shows what it logged, after its one line of why.
  process.once("exit", releaseHeldLines);
  const holding = { write: (line: string) => (held === null ? destination.write(line) : held.push(line)) };
  return { logger: pino({ level, serializers: loggableErrorSerializers }, holding), releaseHeldLines };
}

/** Prints one line on standard error (if anyone reads it) and ends the process with `code`. */
export function exitWithLine(line: string, code: number): never {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // Nobody reads standard error: the exit code still tells.
  }
  process.exit(code);
}
