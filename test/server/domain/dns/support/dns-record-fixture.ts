/**
 * What the DNS record API tests share (dns-records-r, dns-records-d, dns-records-both): a test server
 * with partner A's user u1 and two domains, partner B's user b1 and one, and the calls and error
 * bodies of both variants.
 */
import { beforeEach, expect } from "vitest";
import type { components } from "../../../../../generated/types/full.js";
import { useTestServer } from "../../../../support/test-server.js";

export type DCreate = components["schemas"]["DnsRecordDCreate"];
export type RCreate = components["schemas"]["DnsRecordRCreate"];
export type DRecord = components["schemas"]["DnsRecordD"];

export const NOW = "2026-11-22T10:00:00Z";
export const REC_ID = /^rec_[A-Za-z0-9]+$/;

export const forbiddenD = { error: "forbidden", message: "You do not have access to this domain" };
export const forbiddenR = { errors: ["You do not have access to this domain"] };
export const coded = (status: 400 | 409 | 422, message: string, field: string, code: string) => ({
  error: status === 409 ? "conflict" : "validation_error",
  message,
  details: { field, code },
});

// 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters.
export const NAME_253 = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(61)].join(".");
export const NAME_254 = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(62)].join(".");

/** Starts the test server for the calling file and creates the users and domains before each test. */
export function useDnsRecordFixture() {
  const s = useTestServer();
  const ids = {
    /** adalovelace.com, partner A's domain of user u1. */
    domainId: "",
    /** adalovelace.io, a second domain of the same user. */
    secondDomainId: "",
    /** gracehopper.com, partner B's domain of user b1. */
    otherDomainId: "",
  };

  beforeEach(async () => {
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "b1" } });
    ids.domainId = await s.registerDomainFor("u1", "adalovelace.com");
    ids.secondDomainId = await s.registerDomainFor("u1", "adalovelace.io");
    ids.otherDomainId = await s.registerDomainFor("b1", "gracehopper.com", "partner_b");
  });

  const domainPath = (domain_id = ids.domainId) => ({ params: { path: { domain_id } } });
  const recordPath = (record_id: string, domain_id = ids.domainId) => ({ params: { path: { domain_id, record_id } } });

  const createD = (body: DCreate, domain_id = ids.domainId) =>
    s.api.POST("/api/v1/domains/{domain_id}/dns", { ...domainPath(domain_id), body });
  const createR = (body: Omit<RCreate, "domain_id"> & { domain_id?: string }) =>
    s.api.POST("/api/v1/dns_records", { body: { domain_id: ids.domainId, ...body } });
  const getR = (id: string) => s.api.GET("/api/v1/dns_records/{id}", { params: { path: { id } } });
  const listD = async (domain_id = ids.domainId): Promise<DRecord[]> => {
    const { data, response } = await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath(domain_id));
    expect(response.status).toBe(200);
    return data!.records;
  };
  /** Creates a record through Variant D and returns its id, failing loudly if it was refused. */
  const seedD = async (body: DCreate, domain_id = ids.domainId): Promise<string> => {
    const { data, response } = await createD(body, domain_id);
    expect(response.status).toBe(201);
    return data!.id;
  };
  /** Partner B's own record on its own domain. */
  const seedOther = async (): Promise<string> => {
    const { data, response } = await s.otherPartner.POST("/api/v1/domains/{domain_id}/dns", {
      ...domainPath(ids.otherDomainId),
      body: { type: "A", name: "www", content: "198.51.100.7" },
    });
    expect(response.status).toBe(201);
    return data!.id;
  };
  const otherRecords = async () =>
    (await s.otherPartner.GET("/api/v1/domains/{domain_id}/dns", domainPath(ids.otherDomainId))).data!.records;
  const eventsOf = (type: string) => s.outbox.events.filter((event) => event.type === type);

  return { s, ids, domainPath, recordPath, createD, createR, getR, listD, seedD, seedOther, otherRecords, eventsOf };
}
