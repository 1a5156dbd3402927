/** The connection check's pure rules: requirements read into one spelling, each checked against records, and the fixes as one change set. */
import { describe, expect, it } from "vitest";
import { checkRequirement, fixesAsChangeSet, type CheckedRecord } from "../../../../server/domain/connection/connection-check.js";
import { readRequirements } from "../../../../server/domain/connection/connection-requirements.js";
import { magicZoneOf, simulatedAnswer, PROPAGATION_MS } from "../../../../server/domain/connection/sandbox-resolution.js";

const record = (type: CheckedRecord["type"], name: string, content: string, id = `rec_${type}_${name}_${content}`): CheckedRecord => ({
  id,
  type,
  name,
  content,
  ttl: 600,
});

describe("requirements", () => {
  it("are read into one spelling: addresses canonical, host names in lower case without the final dot", () => {
    expect(
      readRequirements([
        { kind: "apex", addresses: ["2001:DB8:0:0::1", "203.0.113.10"] },
        { kind: "www", target: "Sites.Example.NET." },
        { kind: "txt", name: "_Verify", value: "token" },
      ]),
    ).toEqual({
      requirements: [
        { kind: "apex", addresses: ["2001:db8::1", "203.0.113.10"] },
        { kind: "www", target: "sites.example.net" },
        { kind: "txt", name: "_verify", value: "token" },
      ],
    });
  });

  it("are refused past the limits, naming each problem", () => {
    const many = Array.from({ length: 11 }, (_, index) => ({ kind: "txt" as const, name: `_t${index}`, value: "x" }));
    expect(readRequirements(many).problems?.[0]).toMatchObject({ field: "requirements", code: "too_many_requirements" });
    const addresses = Array.from({ length: 9 }, (_, index) => `192.0.2.${index + 1}`);
    expect(readRequirements([{ kind: "apex", addresses }]).problems).toEqual([
      expect.objectContaining({ field: "requirements[0].addresses", code: "too_many_addresses" }),
    ]);
    expect(readRequirements([{ kind: "apex", addresses: ["192.0.2.1", "192.0.2.01"] }]).problems?.[0]?.code).toBe("invalid_address");
    expect(readRequirements([{ kind: "txt", name: "*", value: "x" }]).problems?.[0]?.code).toBe("invalid_name");
  });
});

describe("a requirement against records", () => {
  it("apex addresses: exactly these; a wrong address of the same type updated, other kinds deleted, missing ones created", () => {
    const records = [record("A", "@", "192.0.2.1"), record("AAAA", "@", "2001:db8::9"), record("A", "www", "192.0.2.1")];
    const result = checkRequirement({ kind: "apex", addresses: ["203.0.113.10"] }, records, 300);
    expect(result.satisfied).toBe(false);
    expect(result.found.map((found) => found.type)).toEqual(["A", "AAAA"]);
    expect(result.fixes).toEqual([
      {
        action: "update",
        record_id: "rec_A_@_192.0.2.1",
        record: { type: "A", name: "@", content: "203.0.113.10", value: "203.0.113.10", ttl: 600 },
      },
      { action: "delete", record_id: "rec_AAAA_@_2001:db8::9", record: null },
    ]);
    expect(checkRequirement({ kind: "apex", addresses: ["2001:db8::9"] }, [record("AAAA", "@", "2001:db8::9")], 300).satisfied).toBe(true);
  });

  it("apex alias: one ALIAS to the target and no addresses beside it", () => {
    const result = checkRequirement({ kind: "apex", target: "apex.example.net" }, [record("A", "@", "192.0.2.1")], 300);
    expect(result.fixes.map((fix) => fix.action)).toEqual(["delete", "create"]);
    expect(fixesAsChangeSet([result])).toEqual({
      deletes: [{ id: "rec_A_@_192.0.2.1" }],
      creates: [{ type: "ALIAS", name: "@", content: "apex.example.net", ttl: 300 }],
    });
    expect(checkRequirement({ kind: "apex", target: "apex.example.net" }, [record("ALIAS", "@", "Apex.Example.net.")], 300).satisfied).toBe(
      true,
    );
  });

  it("www: a CNAME alone at www, the one there updated", () => {
    const result = checkRequirement(
      { kind: "www", target: "sites.example.net" },
      [record("CNAME", "www", "old.example.net"), record("TXT", "WWW", "x")],
      300,
    );
    expect(result.fixes.map((fix) => `${fix.action} ${fix.record?.content ?? fix.record_id}`)).toEqual([
      "update sites.example.net",
      "delete rec_TXT_WWW_x",
    ]);
  });

  it("txt: one TXT holding the value, others at the name left as they are", () => {
    const there = [record("TXT", "_v", "other"), record("TXT", "_v", '"tok" "en"')];
    expect(checkRequirement({ kind: "txt", name: "_v", value: "token" }, there, 300)).toMatchObject({ satisfied: true, fixes: [] });
    expect(checkRequirement({ kind: "txt", name: "_v", value: "else" }, there, 300).fixes).toEqual([
      { action: "create", record_id: null, record: { type: "TXT", name: "_v", content: "else", value: "else", ttl: 300 } },
    ]);
  });

  it("makes no change set when nothing is to change", () => {
    expect(fixesAsChangeSet([checkRequirement({ kind: "txt", name: "_v", value: "x" }, [record("TXT", "_v", "x")], 300)])).toBeNull();
  });
});

describe("the sandbox's simulated resolution", () => {
  it("needs every nameserver under one magic zone", () => {
    expect(magicZoneOf(["ns1.correct.sandbox-dns.test", "NS2.Correct.Sandbox-DNS.test."])).toBe("correct");
    expect(magicZoneOf(["ns1.correct.sandbox-dns.test", "ns2.unreachable.sandbox-dns.test"])).toBeNull();
    expect(magicZoneOf(["ns1.example.net", "ns2.example.net"])).toBeNull();
    expect(magicZoneOf(["correct.sandbox-dns.test", "correct.sandbox-dns.test"])).toBeNull();
  });

  it("propagating: the nameservers before answer until an hour after the new ones took effect", () => {
    const applied = new Date("2026-11-22T10:00:00Z");
    const requirements = [{ kind: "www" as const, target: "sites.example.net" }];
    expect(simulatedAnswer("propagating", requirements, applied, new Date(applied.getTime() + PROPAGATION_MS - 1))).toEqual({
      kind: "propagating",
      until: new Date(applied.getTime() + PROPAGATION_MS),
    });
    expect(simulatedAnswer("propagating", requirements, applied, new Date(applied.getTime() + PROPAGATION_MS))).toMatchObject({
      kind: "records",
    });
    expect(simulatedAnswer("propagating", requirements, null, applied)).toEqual({ kind: "propagating", until: null });
  });
});
