/**
 * How much password work the dashboard lets one client, one address and everyone do. Counted in
 * the rate limiter's store, which every instance shares, except the hashing queue: that bounds
 * this process's memory and threads, so each instance has its own.
 */
export interface AccountLimits {
  /** Wrong passwords one client may try on one address in a window before each try waits. */
  signInFreeAttempts: number;
  /** The wait after the free attempts starts at a second and doubles with each wrong password, up to this. */
  signInMaxDelayMs: number;
  /** Sign-in attempts (and current passwords) one client may make in a window, whatever the addresses. */
  signInAttemptsPerClient: number;
  signInWindowMs: number;
  signUpsPerClient: number;
  /** Sign-ups of everyone together in a window: what a flood from many clients can cost at most. */
  signUpsGlobal: number;
  signUpWindowMs: number;
}

export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = {
  signInFreeAttempts: 5,
  signInMaxDelayMs: 60_000,
  signInAttemptsPerClient: 100,
  signInWindowMs: 15 * 60_000,
  signUpsPerClient: 10,
  signUpsGlobal: 300,
  signUpWindowMs: 3_600_000,
};

/** Concurrent scrypt runs of one process and how many may wait for one; more are refused (429). */
export interface PasswordHashingLimits {
  concurrency: number;
  waiting: number;
}

/**
 * Two at once: each takes 128 MiB and one of libuv's four threads, which file reads and DNS lookups
 * share. Eight waiting are a couple of seconds' work at most.
 */
export const DEFAULT_PASSWORD_HASHING: PasswordHashingLimits = { concurrency: 2, waiting: 8 };
