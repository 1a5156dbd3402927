/** `npm run check:client`: the client package as partners would install it (see scripts/lib/client-package.ts). Exits 1 on any problem. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkClientPackage } from "./lib/client-package.js";

const workDir = await mkdtemp(join(tmpdir(), "partner-client-check-"));
try {
  const report = await checkClientPackage(workDir);
  console.log(
    `${report.tarball}: ${report.files.length} files, ${(report.size / 1024).toFixed(1)} KiB packed, ${(report.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
  );
  console.log(report.publint.length === 0 ? "publint: no messages" : `publint:\n  ${report.publint.join("\n  ")}`);
  console.log(`attw (esm-only): exit ${report.attw.exitCode}`);
  if (report.problems.length > 0) {
    console.error(`client package problems:\n  ${report.problems.join("\n  ")}`);
    process.exitCode = 1;
  } else {
    console.log("client package: publint clean, attw clean, self-contained, a consumer type-checks");
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}
