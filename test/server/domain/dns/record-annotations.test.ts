/** A record's comment and the partner's lock through the API: both variants, bulk, change sets, templates, events. */
import { describe, expect, it } from "vitest";
import {
  annotationsAfter,
  commentViolations,
  COMMENT_MAX_LENGTH,
  NO_ANNOTATIONS,
} from "../../../../server/domain/dns/record-annotations.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

const { s, ids, domainPath, recordPath, createD, createR, getR, listD, seedD, eventsOf } = useDnsRecordFixture();

const VERIFICATION = { type: "TXT" as const, name: "_shop-verify", content: "shop-verify=4f2a" };

describe("the comment's rules", () => {
  it("counts code points, as JSON Schema's maxLength does, so 500 emoji fit and 501 letters do not", () => {
    expect(commentViolations("🔒".repeat(COMMENT_MAX_LENGTH))).toEqual([]);
    expect(commentViolations("a".repeat(COMMENT_MAX_LENGTH + 1))).toEqual([
      expect.objectContaining({ field: "comment", code: "too_long" }),
    ]);
  });

  it.each([
    ["a line break", "one\ntwo"],
    ["a tab", "a\tb"],
    ["DEL", "a\u007Fb"],
    ["a C1 control", "a\u0085b"],
  ])("refuses %s as invalid_format", (_label, comment) => {
    expect(commentViolations(comment)).toEqual([expect.objectContaining({ field: "comment", code: "invalid_format" })]);
  });

  it("reads null, an absent comment and an empty one as none, and keeps what a change does not name", () => {
    const before = { comment: "kept", locked: true };
    expect(annotationsAfter(before, {})).toEqual(before);
    expect(annotationsAfter(before, { comment: "" })).toEqual({ comment: null, locked: true });
    expect(annotationsAfter(before, { comment: null, locked: false })).toEqual(NO_ANNOTATIONS);
  });
});

describe("Variant D", () => {
  it("answers comment null and locked false for a record created without them", async () => {
    const { data } = await createD({ type: "A", name: "www", content: "203.0.113.10" });
    expect(data).toMatchObject({ comment: null, locked: false });
  });

  it("stores a comment and a lock given on create: answered, listed, in the domain's detail and in the event", async () => {
    const { data, response } = await createD({ ...VERIFICATION, comment: "Shop builder verification", locked: true });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ comment: "Shop builder verification", locked: true });
    expect(await listD()).toEqual([data]);
    const detail = (await s.api.GET("/api/v1/domains/{domain_id}", domainPath())).data;
    expect(detail?.dns_records).toEqual([expect.objectContaining({ id: data!.id, comment: "Shop builder verification", locked: true })]);
    expect(eventsOf("dns_record.created")).toEqual([
      expect.objectContaining({
        payload: { domain_id: ids.domainId, data: expect.objectContaining({ comment: "Shop builder verification", locked: true }) },
      }),
    ]);
  });

  it("keeps the comment and the lock through an update that does not name them, and changes them when named", async () => {
    const id = await seedD({ ...VERIFICATION, comment: "note", locked: true });
    const ttlOnly = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", { ...recordPath(id), body: { ttl: 600 } });
    expect(ttlOnly.data).toMatchObject({ ttl: 600, comment: "note", locked: true });
    const commentOnly = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      ...recordPath(id),
      body: { comment: "new note" },
    });
    expect(commentOnly.response.status).toBe(200);
    expect(commentOnly.data).toMatchObject({ ttl: 600, comment: "new note", locked: true });
    expect(commentOnly.response.headers.get("ETag")).not.toBe(ttlOnly.response.headers.get("ETag"));
    const cleared = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      ...recordPath(id),
      body: { comment: "", locked: false },
    });
    expect(cleared.data).toMatchObject({ comment: null, locked: false });
    expect(eventsOf("dns_record.updated").at(-1)?.payload).toMatchObject({ data: { comment: null, locked: false } });
  });

  it("lets the API delete a locked record (the lock binds the user, not the partner)", async () => {
    const id = await seedD({ ...VERIFICATION, locked: true });
    const { response } = await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", recordPath(id));
    expect(response.status).toBe(204);
    expect(eventsOf("dns_record.deleted")).toEqual([
      expect.objectContaining({ payload: { domain_id: ids.domainId, data: expect.objectContaining({ id, locked: true }) } }),
    ]);
  });

  it("accepts a comment of 500 characters and refuses 501 with 422 validation_error (comment, too_long), creating nothing", async () => {
    expect((await createD({ ...VERIFICATION, comment: "x".repeat(500) })).response.status).toBe(201);
    const { error, response } = await createD({ type: "A", name: "www", content: "203.0.113.10", comment: "x".repeat(501) });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "comment", code: "too_long" } });
    expect(await listD()).toHaveLength(1);
  });

  it("refuses a comment with a line break as every body's text is refused (400 control_character) on update, and keeps the record", async () => {
    const id = await seedD({ ...VERIFICATION, comment: "one line" });
    const { error, response } = await s.api.PUT("/api/v1/domains/{domain_id}/dns/{record_id}", {
      ...recordPath(id),
      body: { comment: "two\nlines" },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "comment", code: "control_character" } });
    expect((await listD())[0]).toMatchObject({ comment: "one line" });
  });

  it("takes the comment and the lock per record in bulk", async () => {
    const { data } = await s.api.POST("/api/v1/domains/{domain_id}/dns/bulk", {
      ...domainPath(),
      body: {
        records: [
          { ...VERIFICATION, comment: "verify", locked: true },
          { type: "A", name: "@", content: "203.0.113.10" },
        ],
      },
    });
    expect(data!.created.map(({ comment, locked }) => ({ comment, locked }))).toEqual([
      { comment: "verify", locked: true },
      { comment: null, locked: false },
    ]);
  });

  it("creates, comments on, locks, unlocks and deletes locked records in a change set", async () => {
    const locked = await seedD({ type: "A", name: "@", content: "203.0.113.10", locked: true, comment: "Shop's address" });
    const other = await seedD({ type: "A", name: "www", content: "203.0.113.10" });
    const { data, response } = await s.api.POST("/api/v1/domains/{domain_id}/dns/changes", {
      ...domainPath(),
      body: {
        deletes: [{ id: locked }],
        updates: [{ id: other, comment: "now the shop's", locked: true }],
        creates: [{ type: "A", name: "@", content: "203.0.113.20", comment: "Shop's new address", locked: true }],
      },
    });
    expect(response.status).toBe(200);
    expect(data!.deleted).toEqual([expect.objectContaining({ id: locked, locked: true, comment: "Shop's address" })]);
    expect(data!.updated[0]!.before).toMatchObject({ comment: null, locked: false });
    expect(data!.updated[0]!.after).toMatchObject({ comment: "now the shop's", locked: true });
    expect(data!.created).toEqual([expect.objectContaining({ comment: "Shop's new address", locked: true })]);
    const unlock = await s.api.POST("/api/v1/domains/{domain_id}/dns/changes", {
      ...domainPath(),
      body: { updates: [{ id: other, locked: false }] },
    });
    expect(unlock.data!.updated[0]!.after).toMatchObject({ comment: "now the shop's", locked: false });
  });

  it("adds a template's records unlocked and without comments", async () => {
    const { data, response } = await s.api.POST("/api/v1/domains/{domain_id}/dns/template", {
      ...domainPath(),
      body: { template_id: "google-workspace" },
    });
    expect(response.status).toBe(201);
    for (const record of data!.records_created) expect(record).toMatchObject({ comment: null, locked: false });
  });
});

describe("Variant R", () => {
  it("stores a comment and a lock given on create, and answers them on every read", async () => {
    const { data, response } = await createR({
      type: "CNAME",
      name: "shop",
      value: "shops.example.net",
      comment: "Storefront",
      locked: true,
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ comment: "Storefront", locked: true });
    expect((await getR(data!.id)).data).toEqual(data);
    expect(await listD()).toEqual([expect.objectContaining({ id: data!.id, comment: "Storefront", locked: true })]);
  });

  it("keeps both through a PATCH that does not name them, and changes each when named", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10", comment: "Shop", locked: true })).data!;
    const patch = (body: Record<string, unknown>) =>
      s.api.PATCH("/api/v1/dns_records/{id}", { params: { path: { id: created.id } }, body });
    expect((await patch({ value: "203.0.113.11" })).data).toMatchObject({ value: "203.0.113.11", comment: "Shop", locked: true });
    expect((await patch({ type: "CNAME", value: "shops.example.net" })).data).toMatchObject({ comment: "Shop", locked: true });
    expect((await patch({ locked: false })).data).toMatchObject({ comment: "Shop", locked: false });
    expect((await patch({ comment: null })).data).toMatchObject({ comment: null, locked: false });
  });

  it("refuses a comment over 500 characters with 422 in the list shape", async () => {
    const { error, response } = await createR({ type: "A", name: "www", value: "203.0.113.10", comment: "x".repeat(501) });
    expect(response.status).toBe(422);
    expect(error).toEqual({ errors: [expect.stringContaining("comment")] });
    expect(await listD()).toEqual([]);
  });

  it("lets the API delete a locked record", async () => {
    const created = (await createR({ type: "A", name: "www", value: "203.0.113.10", locked: true })).data!;
    expect((await s.api.DELETE("/api/v1/dns_records/{id}", { params: { path: { id: created.id } } })).response.status).toBe(204);
  });
});
