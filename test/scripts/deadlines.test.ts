/**
 * Waits that end when the awaited thing is ready, with deadlines that scale with the machine, and
 * children that never outlive the process that started them (scripts/lib/deadlines.ts,
 * scripts/lib/local-ports.ts, scripts/lib/owned-processes.ts).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Deadline, SLOWDOWN_SETTING, slowdownOf } from "../../scripts/lib/deadlines.js";
import { freePort, NotServingError, waitUntilServing } from "../../scripts/lib/local-ports.js";
import { spawnOwned, stopOwned } from "../../scripts/lib/owned-processes.js";
import { spawnServer } from "../../scripts/lib/server-process.js";

describe("the slowdown of a machine", () => {
  it.each([
    [{ cores: 4, load: 0.5 }, 1],
    [{ cores: 4, load: 8 }, 2],
    [{ cores: 2, load: 0.5 }, 2],
    [{ cores: 2, load: 17 }, 17],
    [{ cores: 16, load: 4 }, 1],
  ])("%o is %d", (machine, factor) => {
    expect(slowdownOf(machine)).toBe(factor);
  });

  it("is what PARTNER_API_SLOWDOWN says, when it says a number of at least 1", () => {
    expect(slowdownOf({ cores: 2, load: 17, setting: "3" })).toBe(3);
    expect(slowdownOf({ cores: 2, load: 0, setting: "0.1" })).toBe(2);
    expect(slowdownOf({ cores: 2, load: 0, setting: "fast" })).toBe(2);
    expect(slowdownOf({ cores: 2, load: 0, setting: "" })).toBe(2);
  });
});

describe("a deadline", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("follows the factor while it runs: a base passed at ×1 is not passed at ×1000", async () => {
    vi.stubEnv(SLOWDOWN_SETTING, "1");
    const deadline = new Deadline(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(deadline.passed).toBe(true);
    vi.stubEnv(SLOWDOWN_SETTING, "1000");
    expect(deadline.passed).toBe(false);
    expect(deadline.describe()).toMatch(
      /a base of 0\.001 s scaled ×1000\.0 for this machine's cores and load; PARTNER_API_SLOWDOWN sets the factor/,
    );
  });
});

describe("waiting until a server answers", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("ends as soon as it answers", async () => {
    const server = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      await waitUntilServing("a test server", `http://127.0.0.1:${port}/health`);
    } finally {
      server.close();
    }
  });

  it("ends at once when the process that should serve ends, naming it, its exit code and its last words", async () => {
    const child = spawnOwned(process.execPath, ["-e", "console.error('cannot open the database'); process.exit(3)"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const waiting = waitUntilServing("the doomed server", `http://127.0.0.1:${await freePort()}/health`, {
      child,
      output: () => errors,
      baseMs: 3_600_000,
    });
    await expect(waiting).rejects.toThrow(NotServingError);
    await expect(waiting).rejects.toThrow(
      /^the doomed server \(http:\/\/127\.0\.0\.1:\d+\/health\) ended with 3 before it answered; its last output:\ncannot open the database$/,
    );
  });

  it("ends at its deadline, naming the server and the scaled deadline", async () => {
    vi.stubEnv(SLOWDOWN_SETTING, "1");
    const url = `http://127.0.0.1:${await freePort()}/health`;
    await expect(waitUntilServing("the silent server", url, { baseMs: 300 })).rejects.toThrow(
      new RegExp(`^the silent server \\(${url}\\) did not answer within \\d+ s \\(a base of 0\\.3 s scaled ×1\\.0`),
    );
  });
});

/** Whether a process of this id is running: it exists, and is not a zombie waiting for its parent to collect it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** A process that starts a grandchild which ignores SIGTERM and prints the grandchild's id. */
const PARENT_OF_STUBBORN_CHILD = `
  const { spawn } = require("node:child_process");
  const grandchild = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
  console.log(grandchild.pid);
  setInterval(() => {}, 1000);`;

function firstLine(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
}

describe("an owned child process", () => {
  it("is stopped with everything it started, even what ignores SIGTERM", async () => {
    const child = spawnOwned(process.execPath, ["-e", PARENT_OF_STUBBORN_CHILD], { stdio: ["ignore", "pipe", "ignore"] });
    const grandchild = await firstLine(child);
    expect(alive(grandchild)).toBe(true);
    await stopOwned(child, { graceMs: 200 });
    await vi.waitFor(() => expect(alive(grandchild)).toBe(false));
  });

  it.each(["an uncaught error", "SIGTERM"])("ends with the process that started it, when that one ends by %s", async (ending) => {
    // A script that starts an owned child (which starts a grandchild), then ends as named.
    const script = `
      import { spawnOwned } from "./scripts/lib/owned-processes.ts";
      const child = spawnOwned(process.execPath, ["-e", ${JSON.stringify(PARENT_OF_STUBBORN_CHILD)}], { stdio: ["ignore", "pipe", "ignore"] });
      child.stdout.once("data", (chunk) => {
        console.log(JSON.stringify({ child: child.pid, grandchild: Number(chunk.toString().trim()) }));
      });
      // Fails when the test says so, once it has seen both alive.
      process.stdin.once("data", () => {
        throw new Error("the starter failed");
      });
      setInterval(() => {}, 1000);`;
    const starter = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const ids = await new Promise<{ child: number; grandchild: number }>((resolve) =>
      starter.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))),
    );
    expect(alive(ids.child) && alive(ids.grandchild)).toBe(true);
    if (ending === "SIGTERM") starter.kill("SIGTERM");
    else starter.stdin!.write("fail\n");
    const ended = await new Promise<NodeJS.Signals | number | null>((resolve) =>
      starter.once("exit", (code, signal) => resolve(signal ?? code)),
    );
    expect(ended).toBe(ending === "SIGTERM" ? "SIGTERM" : 1);
    await vi.waitFor(() => expect([alive(ids.child), alive(ids.grandchild)]).toEqual([false, false]));
  });
});

describe("a server started by a test or script", () => {
  it("listens on free ports unless told otherwise: never on the ports npm start takes", async () => {
    const reportPorts =
      "console.log(JSON.stringify([process.env.PORT, process.env.EMBED_PORT, process.env.DASHBOARD_PORT, process.env.DEMO_HOST_PORT]))";
    const server = spawnServer(["-e", reportPorts], { DASHBOARD_PORT: "4321" });
    expect(await server.exited).toBe(0);
    expect(JSON.parse(server.output())).toEqual(["0", "0", "4321", "0"]);
  });
});
