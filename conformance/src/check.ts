/**
 * A check of the kit: one behaviour of the API, proved over HTTP against any target. The rule
 * catalogue (spec/rules/) names, for each rule, the checks that prove it.
 */
import type { ContractClient } from "./contract-client.js";
import type { Fixtures } from "./fixtures.js";
import type { Target } from "./target.js";
import type { WebhookReceiver } from "./webhook-receiver.js";

/** What a check needs of a target; without it the check is not applicable, and says why. */
export type Need =
  /** A target that keeps what it is told (not a mock). */
  | "state"
  /** A key of a second partner (`--second-key`). */
  | "second-key"
  /** A revoked key of the partner (`--revoked-key`). */
  | "revoked-key"
  /** The sandbox helpers (a sandbox key): sandbox domains, the sandbox clock. */
  | "sandbox"
  /** Webhooks the target can deliver to the kit's receiver. */
  | "receiver";

export interface CheckContext {
  target: Target;
  api: ContractClient;
  /** The run's shared data (a user, a domain, records, a transfer, an endpoint), set up on first use. */
  fixtures(): Promise<Fixtures>;
  /** A name no other run and no other check of this run uses: `stem-<run>-<n>`. */
  unique(stem: string): string;
  /** Ends the check as not applicable to this target, saying why. */
  notApplicable(reason: string): never;
  /** The kit's webhook receiver (started on first use). */
  receiver(): Promise<WebhookReceiver>;
  /** A line for the report, e.g. how long a wait was. */
  note(line: string): void;
}

export interface Check {
  /** Stable identifier the rule catalogue names, `family.what-it-proves` (lower case, dots and dashes). */
  id: string;
  /** What it proves, one line. */
  title: string;
  needs?: Need[];
  /** Operations the target must serve for the check to apply (another variant's are not applicable). */
  operations?: string[];
  /** Changes data other checks rely on (a sandbox reset): run after all others. */
  destructive?: boolean;
  run(context: CheckContext): Promise<void>;
}

export class NotApplicable extends Error {}

export function defineChecks(checks: Check[]): Check[] {
  for (const check of checks)
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(check.id)) throw new Error(`check id ${check.id} is not family.what-it-proves`);
  return checks;
}
