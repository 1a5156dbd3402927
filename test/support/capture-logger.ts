/** A pino logger writing to memory, for tests that read what the server logs. */
import { pino, type LevelWithSilent, type Logger } from "pino";

/** One parsed line: pino's fields (level as a number, msg, time, pid, hostname) and the logged object's. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

export interface CapturedLogs {
  logger: Logger;
  /** Every line, parsed, in order. */
  lines: LogLine[];
  /** Everything written, exactly as it would reach stdout. */
  text(): string;
}

export function captureLogger(level: LevelWithSilent = "info"): CapturedLogs {
  let raw = "";
  const lines: LogLine[] = [];
  // pino writes one whole line per call, synchronously, to any object with write().
  const destination = {
    write(line: string) {
      raw += line;
      lines.push(JSON.parse(line) as LogLine);
    },
  };
  return { logger: pino({ level }, destination), lines, text: () => raw };
}

/** A logger at error level handing each line's message and stack to `log`: the unexpected errors (500s) a test server collects. */
export function errorLogger(log: (message: string, stack?: string) => void): Logger {
  return pino(
    { level: "error" },
    {
      write(line: string) {
        const { msg, err } = JSON.parse(line) as { msg: string; err?: { stack?: string } };
        log(msg, err?.stack);
      },
    },
  );
}
