/** `npm pack` of a package folder, as the client and the conformance kit are packed for install. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PackedPackage {
  /** The .tgz's path, in the work directory, under npm's name for it (<name>-<version>.tgz). */
  tarball: string;
  /** Bytes of the .tgz, and of its files unpacked. */
  size: number;
  unpackedSize: number;
  /** Paths inside the package, sorted. */
  files: string[];
}

/**
 * Packs `packageDir` into `workDir` and answers what npm says it packed. Scripts are ignored: the
 * callers build the package first, and a prepack script would build again and print into the JSON.
 */
export async function npmPack(packageDir: string, workDir: string): Promise<PackedPackage> {
  const packed = await run("npm", ["pack", packageDir, "--json", "--ignore-scripts", "--pack-destination", workDir], {
    cwd: workDir,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`npm pack failed:\n${error.stderr || error.stdout || error.message}`);
  });
  const [pack] = JSON.parse(packed.stdout) as [{ filename: string; size: number; unpackedSize: number; files: { path: string }[] }];
  return {
    tarball: join(workDir, pack.filename),
    size: pack.size,
    unpackedSize: pack.unpackedSize,
    files: pack.files.map((file) => file.path).sort(),
  };
}
