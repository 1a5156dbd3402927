/**
 * A member's sign-in while anonymous sign-ups flood the dashboard (issue 31, point 4): each mode of
 * bench/targets/dashboard.ts in its own process, idle first, then with FLOOD parallel clients
 * signing up for SECONDS (each sign-up from an address of its own, as a flood from many hosts
 * is), while the member signs in over and over. Prints and writes the member's latencies and
 * answers, the sign-ups' answers, and the process's peak RSS.
 *   npm run bench:sign-up-flood        (FLOOD=32 SECONDS=20 by default)
 */
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { peakRssMiB, startPrintingTarget, stop } from "./lib/processes.js";

const FLOOD = Number(process.env.FLOOD ?? 32);
const SECONDS = Number(process.env.SECONDS ?? 20);
const MEMBER = { email: "member@bench.test", password: "the bench member's password" };
const MODES = ["unbounded", "queue", "defaults"] as const;

/** One browser of the dashboard's forms: its form cookie and token, from one client address. */
async function postForm(base: string, path: string, formPath: string, client: string, fields: Record<string, string>) {
  const form = await fetch(`${base}${formPath}`, { headers: { "X-Forwarded-For": client } });
  const cookie = form.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const started = performance.now();
  const answer = await fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, "X-Forwarded-For": client },
    body: new URLSearchParams({ _csrf: token, ...fields }),
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
}

const signIn = (base: string) => postForm(base, "/sign-in", "/sign-in", "198.51.100.1", MEMBER);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const counts = (statuses: number[]) =>
  [...new Set(statuses)]
    .sort()
    .map((status) => `${status}×${statuses.filter((s) => s === status).length}`)
    .join(", ");

interface ModeResult {
  mode: string;
  idleMs: number[];
  floodMs: number[];
  memberStatuses: number[];
  signUpStatuses: number[];
  rssIdle: number;
  rssPeak: number;
}

async function measure(mode: (typeof MODES)[number]): Promise<ModeResult> {
  const target = await startPrintingTarget("node", ["--import", "tsx", "bench/targets/dashboard.ts"], {
    MODE: mode,
    MEMBER_EMAIL: MEMBER.email,
    MEMBER_PASSWORD: MEMBER.password,
  });
  const base = `http://127.0.0.1:${target.port}`;
  try {
    const idleMs: number[] = [];
    for (let i = 0; i < 6; i++) idleMs.push((await signIn(base)).ms);
    idleMs.shift(); // the first pays for warming up
    const rssIdle = peakRssMiB(target.child.pid!);
    const until = performance.now() + SECONDS * 1000;
    const signUpStatuses: number[] = [];
    let next = 0;
    const flooder = async () => {
      while (performance.now() < until) {
        const n = next++;
        const client = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
        const answer = await postForm(base, "/sign-up", "/sign-up", client, {
          partner_name: `Flood ${n}`,
          email: `flood${n}@flood.test`,
          password: "a flooding sign-up password",
        });
        signUpStatuses.push(answer.status);
      }
    };
    const flood = Array.from({ length: FLOOD }, flooder);
    const floodMs: number[] = [];
    const memberStatuses: number[] = [];
    while (performance.now() < until) {
      const answer = await signIn(base);
      floodMs.push(answer.ms);
      memberStatuses.push(answer.status);
    }
    await Promise.all(flood);
    return { mode, idleMs, floodMs, memberStatuses, signUpStatuses, rssIdle, rssPeak: peakRssMiB(target.child.pid!) };
  } finally {
    await stop(target);
  }
}

const results: ModeResult[] = [];
for (const mode of MODES) {
  results.push(await measure(mode));
  console.error(`measured ${mode}`);
}
const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);
const table = [
  "| Mode | member sign-in idle, p50 | under the flood: p50 | p95 | max | member's answers | sign-ups answered | peak RSS (idle → flood) |",
  "| ---- | ---: | ---: | ---: | ---: | --- | --- | ---: |",
  ...results.map(
    (r) =>
      `| ${r.mode} | ${ms(percentile(r.idleMs, 50))} | ${ms(percentile(r.floodMs, 50))} | ${ms(percentile(r.floodMs, 95))} | ${ms(Math.max(...r.floodMs))} | ${counts(r.memberStatuses)} | ${counts(r.signUpStatuses)} | ${r.rssIdle} → ${r.rssPeak} MiB |`,
  ),
].join("\n");
const base = results[0]!;
const ratios = results
  .slice(1)
  .map(
    (r) =>
      `${r.mode}: member p95 under the flood ${(percentile(r.floodMs, 95) / percentile(base.floodMs, 95)).toFixed(2)} of unbounded's, peak RSS ${(r.rssPeak / base.rssPeak).toFixed(2)} of unbounded's`,
  )
  .join("; ");
const report = `${table}\n\n${ratios}.\n`;
console.log(report);
if (process.env.WRITE_RESULT) writeFileSync(process.env.WRITE_RESULT, report);
