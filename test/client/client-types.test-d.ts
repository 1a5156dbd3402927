// Type-level tests of the partner client, checked by `npm run typecheck`: each @ts-expect-error line must NOT compile.
// Nothing here runs (the functions are never called); the calls only have to type-check.
import {
  createPartnerClient,
  errorMessages,
  hasErrorCode,
  isRateLimited,
  isErrorList,
  isValidationError,
  type PartnerClient,
} from "../../client/src/index.js";
import { verifyWebhookSignature, WebhookVerificationError } from "../../client/src/webhooks.js";

declare const api: PartnerClient;
declare const apiR: PartnerClient<"R">;
declare const apiD: PartnerClient<"D">;

export async function wellTyped() {
  const { data, error } = await api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
  if (data) {
    const spent: string = data.total_spent;
    void spent;
  }
  if (isRateLimited(error)) {
    const seconds: number = error.details.retry_after;
    void seconds;
  }
  const created = await api.POST("/api/v1/domains/{domain_id}/dns", {
    params: { path: { domain_id: "dom_1" } },
    body: { type: "A", name: "@", content: "203.0.113.1", ttl: 300 },
  });
  const content: string | undefined = created.data?.content;
  void content;
  const record = await apiR.POST("/api/v1/dns_records", { body: { domain_id: "dom_1", type: "A", name: "@", value: "203.0.113.1" } });
  if (isErrorList(record.error)) {
    const messages: string[] = record.error.errors;
    void messages;
  }
  if (isValidationError(record.error)) void record.error.details?.field;
  // The variant's client has the variant's operations; "both" has the user list and its iterator.
  for await (const user of api.paginateUsers()) void user.user_identifier;
  for await (const user of apiD.paginateUsers({ pageSize: 10 })) void user.domain_count;
  for await (const record of apiD.paginateDnsRecords("dom_1", { pageSize: 10 })) void record.content;
  for await (const page of api.dnsRecordPages("dom_1")) void page.next_cursor;
}

export async function wrongPath() {
  // @ts-expect-error "/api/v1/userz" is not a path of the API
  await api.GET("/api/v1/userz", {});
  // @ts-expect-error the path exists, but not with DELETE
  await api.DELETE("/api/v1/domains/tlds", {});
  // @ts-expect-error a path parameter must be given
  await api.GET("/api/v1/domains/{domain_id}", {});
}

export async function missingRequiredField() {
  // @ts-expect-error createUserSession requires user_identifier
  await api.POST("/api/v1/users", { body: { email: "ada@example.com" } });
  // @ts-expect-error a D record needs its content
  await api.POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: "dom_1" } }, body: { type: "A", name: "@", ttl: 300 } });
}

export async function wrongFieldType() {
  // @ts-expect-error user_identifier is a string
  await api.POST("/api/v1/users", { body: { user_identifier: 42 } });
  // @ts-expect-error years is a number
  await api.POST("/api/v1/domains/{domain_id}/renew", { params: { path: { domain_id: "dom_1" } }, body: { years: "2" } });
  // biome-ignore format: @ts-expect-error must stand on the line before the error it expects
  // @ts-expect-error "SPF" is not a record type of the API
  await api.POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: "dom_1" } }, body: { type: "SPF", name: "@", content: "v=spf1 -all" } });
  // @ts-expect-error limit is a number
  await api.GET("/api/v1/users", { params: { query: { limit: "10" } } });
}

export async function variantRFieldOnVariantD() {
  // biome-ignore format: @ts-expect-error must stand on the line before the error it expects
  // @ts-expect-error `value` is Variant R's field; a Variant D record has `content`
  await api.POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: "dom_1" } }, body: { type: "A", name: "@", content: "203.0.113.1", value: "203.0.113.1" } });
  // @ts-expect-error a Variant D record in the answer has no `value`
  void (await api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: "dom_1" } } })).data?.records[0]?.value;
  // @ts-expect-error Variant R's client has no Variant D paths
  await apiR.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: "dom_1" } } });
  // @ts-expect-error Variant D's client has no Variant R paths
  await apiD.POST("/api/v1/dns_records", { body: { domain_id: "dom_1", type: "A", name: "@", value: "203.0.113.1" } });
  // @ts-expect-error the user list is Variant D's, so Variant R's client has no iterator over it
  apiR.paginateUsers();
  // @ts-expect-error the record list is Variant D's, so Variant R's client has no iterator over it
  apiR.paginateDnsRecords("dom_1");
}

export function options() {
  // The variant is inferred from the option.
  const r: PartnerClient<"R"> = createPartnerClient({ apiKey: "sk_sandbox_x", variant: "R" });
  void r;
  // @ts-expect-error environment is "sandbox" or "production"
  createPartnerClient({ apiKey: "sk_sandbox_x", environment: "staging" });
  // @ts-expect-error the key is required
  createPartnerClient({ baseUrl: "http://localhost:3000" });
}

export function webhookEvents(rawBody: string, header: string) {
  const event = verifyWebhookSignature(rawBody, header, "whsec_x");
  if (event.type === "transfer.status_changed") {
    const previous: string = event.previous_status;
    void previous;
  }
  if (event.type === "domain.transfer_out.completed") {
    // An outbound transfer's event carries the transfer, its status one of four.
    const status: "pending" | "completed" | "rejected" | "cancelled" = event.data.status;
    const domainId: string = event.data.domain_id;
    void status;
    void domainId;
  }
  if (event.type === "user.deleted") {
    // @ts-expect-error a user.deleted event carries only the user's identifier
    void event.data.email;
  }
  // @ts-expect-error the body must be the raw text or bytes, not parsed JSON
  verifyWebhookSignature({ id: "evt_1" }, header, "whsec_x");
}

// The examples of client/README.md, as written there (so the documentation compiles).
export async function readmeFiveLines() {
  const api = createPartnerClient({ apiKey: process.env.PARTNER_API_KEY! }); // sk_sandbox_... -> the sandbox
  const { data, error } = await api.POST("/api/v1/users", { body: { user_identifier: "user_1", email: "ada@example.com" } });
  if (error) throw new Error(`could not open a session: ${JSON.stringify(error)}`);
  console.log(data.login_url); // put this in your page's iframe; the key never reaches the browser
}

export async function readmeErrors(api: PartnerClient, domain_id: string) {
  const { data, error, response } = await api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id } } });
  if (isRateLimited(error)) console.log(`wait ${error.details.retry_after} s`);
  else if (isValidationError(error)) console.log(`${error.details?.field}: ${error.details?.code}`);
  else if (hasErrorCode(error, "not_found")) console.log("no such domain");
  else if (isErrorList(error)) console.log(response.status, error.errors);
  else if (error) console.log(errorMessages(error));
  void data;
}

export function readmeWebhook(
  req: { body: Buffer; get(name: string): string | undefined },
  res: { sendStatus(status: number): void; status(status: number): { send(body: string): void } },
) {
  try {
    const event = verifyWebhookSignature(req.body, req.get("Partner-Signature"), process.env.WEBHOOK_SECRET!);
    if (event.type === "domain.registered") console.log(event.data.name); // typed by event type
    res.sendStatus(204); // de-duplicate by event.id: deliveries are at least once
  } catch (error) {
    if (error instanceof WebhookVerificationError) res.status(400).send(error.reason);
    else throw error;
  }
}

// Registrar controls (issue 35): the code, the lock and the owner's answer are typed operations.
export async function registrarControls(api: PartnerClient) {
  const path = { domain_id: "dom_1" };
  const code = await api.GET("/api/v1/domains/{domain_id}/auth_code", { params: { path } });
  if (code.data) {
    const value: string = code.data.auth_code;
    const locked: boolean = code.data.transfer_lock;
    void value;
    void locked;
  }
  await api.PUT("/api/v1/domains/{domain_id}", { params: { path }, body: { transfer_lock: false } });
  await api.POST("/api/v1/domains/{domain_id}/transfer_out", { params: { path }, body: { decision: "reject" } });
  // @ts-expect-error the answer is approve or reject
  await api.POST("/api/v1/domains/{domain_id}/transfer_out", { params: { path }, body: { decision: "ignore" } });
}

// "Is it pointing at us?" (issue 35): the requirements, the check and its event are typed.
export async function connectionCheck(api: PartnerClient, rawBody: string, header: string) {
  await api.PUT("/api/v1/connection_requirements", {
    body: {
      requirements: [
        { kind: "www", target: "sites.partner.example" },
        { kind: "txt", name: "_verify", value: "token" },
      ],
    },
  });
  // @ts-expect-error a requirement's kind is apex, www or txt
  await api.PUT("/api/v1/connection_requirements", { body: { requirements: [{ kind: "mx", target: "mail.example" }] } });
  const { data } = await api.GET("/api/v1/domains/{domain_id}/connection", { params: { path: { domain_id: "dom_1" } } });
  if (data) {
    const status: "configured" | "not_configured" | "unknown" | "no_requirements" = data.status;
    const configured: boolean | null = data.configured;
    const fix = data.requirements[0]?.fixes[0];
    const action: "create" | "update" | "delete" | undefined = fix?.action;
    // The fix is ready for a change set (Variant D) as it is.
    if (data.change_set)
      await api.POST("/api/v1/domains/{domain_id}/dns/changes", { params: { path: { domain_id: "dom_1" } }, body: data.change_set });
    void status;
    void configured;
    void action;
  }
  const event = verifyWebhookSignature(rawBody, header, "whsec_x");
  if (event.type === "domain.connection_changed") {
    const now: boolean = event.data.configured;
    void now;
  }
}

// Record comments and locks (issue 35): optional on every write, answered on records and in their events.
export async function recordNotes(api: PartnerClient, apiR: PartnerClient<"R">, rawBody: string, header: string) {
  const path = { domain_id: "dom_1" };
  const created = await api.POST("/api/v1/domains/{domain_id}/dns", {
    params: { path },
    body: { type: "TXT", name: "_verify", content: "token", comment: "Verification", locked: true },
  });
  const comment: string | null | undefined = created.data?.comment;
  const locked: boolean | undefined = created.data?.locked;
  void comment;
  void locked;
  await api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
    params: { path: { ...path, record_id: "rec_1" } },
    body: { comment: null },
  });
  await apiR.PATCH("/api/v1/dns_records/{id}", { params: { path: { id: "rec_1" } }, body: { locked: false } });
  await api.POST("/api/v1/domains/{domain_id}/dns/changes", { params: { path }, body: { updates: [{ id: "rec_1", locked: true }] } });
  await api.POST("/api/v1/domains/{domain_id}/dns", {
    params: { path },
    // @ts-expect-error locked is a boolean
    body: { type: "A", name: "@", content: "192.0.2.1", locked: "yes" },
  });
  const event = verifyWebhookSignature(rawBody, header, "whsec_x");
  if (event.type === "dns_record.updated") void event.data.locked;
}

// Nameservers, glue and DNSSEC (issue 35): typed operations, the pending change and its event.
export async function nameservers(api: PartnerClient, apiR: PartnerClient<"R">, rawBody: string, header: string) {
  const path = { domain_id: "dom_1" };
  const { data } = await api.PUT("/api/v1/domains/{domain_id}/nameservers", {
    params: { path },
    body: { nameservers: ["ns1.example.net", "ns2.example.net"] },
  });
  const completesAt: string | undefined = data?.nameserver_change?.completes_at;
  const dnsActive: boolean | undefined = data?.dns_active;
  void completesAt;
  void dnsActive;
  await apiR.DELETE("/api/v1/domains/{domain_id}/nameservers", { params: { path } });
  // @ts-expect-error nameservers is a list of host names
  await api.PUT("/api/v1/domains/{domain_id}/nameservers", { params: { path }, body: { nameservers: "ns1.example.net" } });
  await api.PUT("/api/v1/domains/{domain_id}/nameservers/glue/{host}", {
    params: { path: { ...path, host: "ns1.example.com" } },
    body: { ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"] },
  });
  const ds = await api.POST("/api/v1/domains/{domain_id}/dnssec/ds_records", {
    params: { path },
    body: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: "ab".repeat(32) },
  });
  const digest: string | undefined = ds.data?.digest;
  void digest;
  await api.POST("/api/v1/domains/{domain_id}/dnssec/ds_records", {
    params: { path },
    // @ts-expect-error the digest types are 1, 2 and 4
    body: { key_tag: 1, algorithm: 13, digest_type: 3, digest: "ab" },
  });
  const event = verifyWebhookSignature(rawBody, header, "whsec_x");
  if (event.type === "domain.nameservers_changed") void event.data.nameservers;
}
