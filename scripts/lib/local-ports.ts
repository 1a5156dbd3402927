/** Starting local servers for scripts, benchmarks and tests: a free loopback port, and waiting until it answers. */
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** Resolves once `url` answers at all (any status), polling every `intervalMs`; rejects after `timeoutMs`. */
export async function waitUntilServing(url: string, { timeoutMs = 30_000, intervalMs = 100 } = {}): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
