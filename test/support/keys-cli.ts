/**
 * `npm run keys -- ...` from a test, as a child process run without blocking the test's event
 * loop. Run synchronously, a busy machine's start of tsx held the loop for longer than a server's
 * keep-alive timeout, so the server's close of an idle pooled connection went unseen and the next
 * fetch wrote to a closed socket (ECONNRESET, "other side closed").
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs scripts/keys.ts with `args` in `env` (the whole environment, not added to this one); answers what it printed. */
export async function keysCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run("node_modules/.bin/tsx", ["scripts/keys.ts", ...args], { encoding: "utf8", env });
  return stdout;
}
