/**
 * When each step of start-up finished, in milliseconds since the process started, for the line
 * the server logs once it listens (and the start-up benchmark, bench/startup.ts, which reads it).
 * server/main.ts imports this module first, so `entry` is taken before any other module of the
 * server is evaluated: it is Node's own start plus reading the server's code.
 */
export type StartupStep = "entry" | "imported" | "storeOpened" | "appBuilt" | "listening";

const marks: Partial<Record<StartupStep, number>> = { entry: Math.round(performance.now()) };

export function markStartup(step: StartupStep): void {
  marks[step] = Math.round(performance.now());
}

export function startupMarks(): Partial<Record<StartupStep, number>> {
  return { ...marks };
}
