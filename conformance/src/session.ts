/**
 * One run of checks against one target: the shared context (client, fixtures, receiver), each
 * check run to an outcome, and the clean-up of what the run registered. The command line and the
 * in-process suite of `npm test` both run checks through it.
 */
import { NotApplicable, type Check, type CheckContext, type Need } from "./check.js";
import { ContractClient } from "./contract-client.js";
import { newRunId, prepareFixtures, RECEIVER_URL, type Fixtures } from "./fixtures.js";
import { RateLimitPacer, type Pause } from "./rate-limit-pacer.js";
import type { Target } from "./target.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

export type Outcome = "passed" | "failed" | "not-applicable";

export interface CheckResult {
  id: string;
  title: string;
  outcome: Outcome;
  /** Why it failed, or why it does not apply. */
  message?: string;
  milliseconds: number;
  notes: string[];
}

const NEED_REASONS: Record<Need, (target: Target) => string | null> = {
  state: (t) => (t.stateless ? "a stateless target (--stateless) keeps nothing to read back" : null),
  "second-key": (t) => (t.secondKey ? null : "needs a second partner's key (--second-key)"),
  "revoked-key": (t) => (t.revokedKey ? null : "needs a revoked key of the partner (--revoked-key)"),
  sandbox: (t) => (t.environment === "sandbox" ? null : "needs the sandbox helpers (a production target has none)"),
  receiver: (t) => (t.stateless ? "a stateless target sends no webhooks" : null),
};

export interface SessionOptions {
  onPause?: (pause: Pause) => void;
}

export class KitSession {
  readonly run = newRunId();
  readonly api: ContractClient;
  private sequence = 0;
  private fixturesPromise: Promise<Fixtures> | null = null;
  private receiverPromise: Promise<WebhookReceiver> | null = null;

  constructor(
    readonly target: Target,
    options: SessionOptions = {},
  ) {
    this.api = new ContractClient(target, new RateLimitPacer(options.onPause ? { onPause: options.onPause } : {}));
  }

  /** Why `check` does not apply to the target, or null. */
  inapplicable(check: Check): string | null {
    for (const need of check.needs ?? []) {
      const reason = NEED_REASONS[need](this.target);
      if (reason) return reason;
    }
    const missing = (check.operations ?? []).filter((operationId) => !this.api.has(operationId));
    if (missing.length)
      return `the ${this.target.kind === "full" ? "" : `Variant ${this.target.kind} `}target serves no ${missing.join(", ")}`;
    return null;
  }

  async runCheck(check: Check): Promise<CheckResult> {
    const started = performance.now();
    const notes: string[] = [];
    const result = (outcome: Outcome, message?: string): CheckResult => ({
      id: check.id,
      title: check.title,
      outcome,
      ...(message === undefined ? {} : { message }),
      milliseconds: Math.round(performance.now() - started),
      notes,
    });
    const reason = this.inapplicable(check);
    if (reason) return result("not-applicable", reason);
    try {
      await check.run(this.context(notes));
      return result("passed");
    } catch (error) {
      if (error instanceof NotApplicable) return result("not-applicable", error.message);
      return result("failed", error instanceof Error ? error.message : String(error));
    }
  }

  context(notes: string[] = []): CheckContext {
    return {
      target: this.target,
      api: this.api,
      fixtures: () => (this.fixturesPromise ??= prepareFixtures(this.api, this.target)),
      unique: (stem) => `${stem}-${this.run}-${++this.sequence}`,
      notApplicable: (reason) => {
        throw new NotApplicable(reason);
      },
      receiver: () =>
        (this.receiverPromise ??= startWebhookReceiver({ port: this.target.receiverPort, publicUrl: this.target.receiverUrl })),
      note: (line) => void notes.push(line),
    };
  }

  /** Removes the webhook endpoints the run registered (a sandbox reset keeps configuration) and stops the receiver. */
  async close(): Promise<void> {
    const receiver = this.receiverPromise === null ? null : await this.receiverPromise.catch(() => null);
    if (!this.target.stateless && this.api.has("listWebhookEndpoints")) {
      const ours = (url: string) => url.startsWith(RECEIVER_URL) || (receiver !== null && url.startsWith(receiver.urlFor("")));
      const { status, body } = await this.api.call("listWebhookEndpoints").catch(() => ({ status: 0, body: null }));
      if (status === 200)
        for (const endpoint of body?.endpoints ?? [])
          if (ours(String(endpoint.url))) await this.api.call("deleteWebhookEndpoint", { path: { endpoint_id: endpoint.id } });
    }
    await receiver?.close();
  }
}
