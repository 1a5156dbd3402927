/**
 * The partner dashboard as a benchmark target, on the memory store, with one member whose password
 * is hashed at the production cost (MEMBER_EMAIL, MEMBER_PASSWORD). `MODE`: `unbounded` is the dashboard as it was before password
 * work was bounded (no sign-up throttle, every hash straight onto libuv's pool); `queue` bounds the
 * hashing but lifts the throttles (a flood from more clients than any budget); `defaults` is the
 * dashboard as it ships. Clients are told apart by X-Forwarded-For from loopback. Prints one JSON
 * line with the port when it serves.
 */
import { DEFAULT_ACCOUNT_LIMITS, DEFAULT_PASSWORD_HASHING } from "../../server/partners/accounts/account-limits.js";
import { hashPassword } from "../../server/partners/accounts/passwords.js";
import { createApp } from "../../server/assembly/app.js";
import { createDashboardApp } from "../../server/dashboard/dashboard-app.js";

const mode = process.env.MODE ?? "defaults";
const lifted = { signInAttemptsPerClient: 1e9, signUpsPerClient: 1e9, signUpsGlobal: 1e9 };
const { services, routes } = createApp({ environment: "sandbox", embedBaseUrl: "http://127.0.0.1:3001", partners: [] });
const now = services.clock.now();
await services.persistence.accounts.createAccount(
  { id: "ptn_bench", name: "Bench", createdAt: now },
  {
    id: "mem_bench",
    partnerId: "ptn_bench",
    email: process.env.MEMBER_EMAIL!,
    passwordHash: await hashPassword(process.env.MEMBER_PASSWORD!),
    role: "owner",
    createdAt: now,
  },
);
const { app } = createDashboardApp({
  services,
  baseUrl: "http://127.0.0.1",
  apiBaseUrl: "http://127.0.0.1",
  routes,
  mailer: { delivers: true, send: () => {} },
  trustProxy: "loopback",
  accountLimits: mode === "defaults" ? DEFAULT_ACCOUNT_LIMITS : lifted,
  passwordHashing: mode === "unbounded" ? { concurrency: Number.MAX_SAFE_INTEGER, waiting: 0 } : DEFAULT_PASSWORD_HASHING,
  log: () => {},
});
const server = app.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port, domainId: "", mode }));
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
