/**
 * How often one may try a password, counted in the rate limiter's store so every instance counts
 * together. Sign-in is throttled by address and client together: a client's wrong passwords make
 * that client wait, a second after the free attempts and twice as long after each further wrong
 * one, up to a cap; a right password clears its count. Another client (the member's own browser)
 * is never held up by them, and no number of wrong passwords locks an address. Each client also
 * has a budget of attempts over all addresses, and sign-up a budget per client and one for everyone.
 */
import { createHash } from "node:crypto";
import type { Clock } from "../../platform/clock.js";
import { type WindowCounter, type WindowStore, windowStartAt } from "../../platform/rate-limits/window-store.js";
import type { AccountLimits } from "./account-limits.js";
import { RetryLater, type RetryLaterReason, retryAfterSeconds } from "./retry-later.js";

/** The limit of a counter that only counts (the store's limits are 32-bit integers). */
const UNLIMITED = 2 ** 31 - 1;

export interface ThrottleDeps {
  /** Read at each use: tests point a deployment at fresh stores. */
  readonly attempts: WindowStore;
  readonly clock: Clock;
  readonly limits: AccountLimits;
}

/** Counts `counters`, or throws RetryLater with the wait until the latest refused one's window ends. */
async function consumeOrRefuse(
  store: WindowStore,
  reason: RetryLaterReason,
  now: number,
  counters: ReadonlyArray<WindowCounter & { windowMs: number }>,
): Promise<void> {
  const { refused } = await store.consume(counters);
  if (refused.length === 0) return;
  const waitMs = Math.max(...refused.map((i) => counters[i]!.windowStart + counters[i]!.windowMs - now));
  throw new RetryLater(reason, retryAfterSeconds(waitMs));
}

export class SignInThrottle {
  constructor(private readonly deps: ThrottleDeps) {}

  /** The counters of one address tried from one client, hashed: neither is kept readable. */
  private scope(email: string, client: string): string {
    return `dashboard-sign-in:${createHash("sha256").update(`${email}\n${client}`).digest("base64url")}`;
  }

  /** Lets an attempt on `email` from `client` go ahead, or throws RetryLater("sign_in"). */
  async admit(email: string, client: string): Promise<void> {
    const { attempts, clock, limits } = this.deps;
    const now = clock.now().getTime();
    const windowStart = windowStartAt(now, limits.signInWindowMs);
    const scope = this.scope(email, client);
    const [failures] = await attempts.peek([{ key: `${scope}:failures`, windowStart, limit: UNLIMITED }]);
    const counters = [
      {
        key: `dashboard-sign-in:client:${client}`,
        windowStart,
        limit: limits.signInAttemptsPerClient,
        windowMs: limits.signInWindowMs,
      },
    ];
    const beyondFree = failures! - limits.signInFreeAttempts;
    if (beyondFree >= 0) {
      // One attempt per delay: a window of the delay's length that holds one.
      const delayMs = Math.min(1000 * 2 ** beyondFree, limits.signInMaxDelayMs);
      counters.push({ key: `${scope}:gate`, windowStart: windowStartAt(now, delayMs), limit: 1, windowMs: delayMs });
    }
    await consumeOrRefuse(attempts, "sign_in", now, counters);
  }

  /** A wrong password: the next attempts of this client on this address wait longer. */
  async failed(email: string, client: string): Promise<void> {
    const { attempts, clock, limits } = this.deps;
    const windowStart = windowStartAt(clock.now().getTime(), limits.signInWindowMs);
    await attempts.consume([{ key: `${this.scope(email, client)}:failures`, windowStart, limit: UNLIMITED }]);
  }

  /** A right password: this client's wrong ones on this address are forgotten. */
  async succeeded(email: string, client: string): Promise<void> {
    await this.deps.attempts.forget(this.scope(email, client));
  }
}

export class SignUpThrottle {
  constructor(private readonly deps: ThrottleDeps) {}

  /** Counts a sign-up of `client` in its budget and everyone's, or throws RetryLater("sign_up"). */
  async admit(client: string): Promise<void> {
    const { attempts, clock, limits } = this.deps;
    const now = clock.now().getTime();
    const windowStart = windowStartAt(now, limits.signUpWindowMs);
    await consumeOrRefuse(attempts, "sign_up", now, [
      { key: `dashboard-sign-up:client:${client}`, windowStart, limit: limits.signUpsPerClient, windowMs: limits.signUpWindowMs },
      { key: "dashboard-sign-up:everyone", windowStart, limit: limits.signUpsGlobal, windowMs: limits.signUpWindowMs },
    ]);
  }
}
