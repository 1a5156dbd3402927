/**
 * Request bodies are UTF-8 JSON whose strings hold text, not control characters: checked once, in
 * the body-parsing step, for every operation; a refused body changes nothing.
 */
import { describe, expect, it } from "vitest";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();

const post = (path: string, body: string | Buffer, contentType = "application/json") =>
  fetch(`${s.baseUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": contentType },
    body: typeof body === "string" ? body : Uint8Array.from(body),
  });

/** A domain of a new user u1, for the record operations. */
async function domainOfNewUser(): Promise<string> {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  return await s.registerDomainFor("u1", "adalovelace.com");
}

const recordsOf = async (domainId: string) =>
  (await s.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } } })).data!.records;

const controlCharacter = (field: string, codePoint: string) => ({
  error: "validation_error",
  message: `${field} contains the control character ${codePoint}; no field accepts control characters`,
  details: { field, code: "control_character" },
});

describe("strings of a JSON body", () => {
  it.each([
    ["NUL", "\u0000", "U+0000"],
    ["ESC", "\u001b", "U+001B"],
    ["TAB", "\t", "U+0009"],
    ["LF", "\n", "U+000A"],
    ["CR", "\r", "U+000D"],
    ["DEL", "\u007f", "U+007F"],
    ["a C1 control (NEL)", "\u0085", "U+0085"],
    ["a C1 control (CSI)", "\u009b", "U+009B"],
  ])(
    "refuses %s in a TXT record's content with 400 control_character naming the field, and stores nothing",
    async (_name, character, codePoint) => {
      const domainId = await domainOfNewUser();
      const response = await post(
        `/api/v1/domains/${domainId}/dns`,
        JSON.stringify({ type: "TXT", name: "@", content: `v=spf1 ${character}-all` }),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(controlCharacter("content", codePoint));
      expect(await recordsOf(domainId)).toEqual([]);
    },
  );

  it("names the field by its path in nested objects and arrays", async () => {
    const domainId = await domainOfNewUser();
    const records = [
      { type: "TXT", name: "@", content: "fine" },
      { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=none" },
      { type: "TXT", name: "www", content: "\u001b[31mred" },
    ];
    const response = await post(`/api/v1/domains/${domainId}/dns/bulk`, JSON.stringify({ records }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(controlCharacter("records.2.content", "U+001B"));
    expect(await recordsOf(domainId)).toEqual([]);
  });

  it("refuses a control character in an object's key, naming the key with the character escaped", async () => {
    const response = await post(
      "/api/v1/webhook_endpoints",
      JSON.stringify({ url: "https://partner.example/hooks", "descr\u0000iption": "x" }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(controlCharacter("descr\\u0000iption", "U+0000"));
  });

  it("refuses a string that is not well-formed Unicode (a lone surrogate escape) with 400 invalid_unicode", async () => {
    const response = await post("/api/v1/webhook_endpoints", '{"url":"https://partner.example/hooks","description":"a\\ud800b"}');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "validation_error",
      message: "description is not well-formed Unicode (a lone surrogate)",
      details: { field: "description", code: "invalid_unicode" },
    });
    expect((await s.api.GET("/api/v1/webhook_endpoints")).data!.endpoints).toEqual([]);
  });

  it("answers the list shape on the Variant R record operations", async () => {
    const domainId = await domainOfNewUser();
    const response = await post("/api/v1/dns_records", JSON.stringify({ domain_id: domainId, type: "TXT", name: "@", value: "a\u0000b" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: ["value contains the control character U+0000; no field accepts control characters"] });
    expect(await recordsOf(domainId)).toEqual([]);
  });

  it("finds a control character however deep the body nests (up to the 1 MiB limit), never a 500", async () => {
    const depth = 400_000;
    const response = await post("/api/v1/webhook_endpoints", `${"[".repeat(depth)}"\\u0000"${"]".repeat(depth)}`);
    expect(response.status).toBe(400);
    // The path keeps its first and last eight steps: the answer stays small however deep the body.
    expect((await response.json()).details).toEqual({ field: [..."00000000", "…", ..."00000000"].join("."), code: "control_character" });
  });

  it("accepts text beyond ASCII, and JSON whitespace (tabs, new lines) between tokens", async () => {
    const response = await post(
      "/api/v1/webhook_endpoints",
      '{\n\t"url": "https://partner.example/hooks",\r\n\t"description": "Empfänger für Domänen – 受信"\n}',
    );
    expect(response.status).toBe(201);
    expect((await response.json()).description).toBe("Empfänger für Domänen – 受信");
  });
});

describe("the encoding of a JSON body", () => {
  it("refuses bytes that are not UTF-8 with 400 malformed_utf8 instead of storing U+FFFD", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"url":"https://partner.example/hooks","description":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const response = await post("/api/v1/webhook_endpoints", bytes);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "validation_error",
      message: "The body is not valid UTF-8",
      details: { field: "body", code: "malformed_utf8" },
    });
    expect((await s.api.GET("/api/v1/webhook_endpoints")).data!.endpoints).toEqual([]);
  });

  it.each([
    ["an overlong encoding of '/'", [0xc0, 0xaf]],
    ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ["a truncated sequence", [0xe2, 0x82]],
  ])("refuses %s with 400 malformed_utf8", async (_name, invalid) => {
    const bytes = Buffer.concat([
      Buffer.from('{"url":"https://partner.example/hooks","description":"'),
      Buffer.from(invalid),
      Buffer.from('"}'),
    ]);
    const response = await post("/api/v1/webhook_endpoints", bytes);
    expect(response.status).toBe(400);
    expect((await response.json()).details).toEqual({ field: "body", code: "malformed_utf8" });
  });

  it.each(["utf-16", "utf-16le", "UTF-16BE", "utf-32", "utf-7", "iso-8859-1"])(
    "refuses a body declared as charset=%s with 415 and creates nothing",
    async (charset) => {
      const text = JSON.stringify({ url: "https://partner.example/hooks", description: "x" });
      const response = await post("/api/v1/webhook_endpoints", Buffer.from(text, "utf16le"), `application/json; charset=${charset}`);
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: "unsupported_media_type", message: "Request bodies must be UTF-8 application/json" });
      expect((await s.api.GET("/api/v1/webhook_endpoints")).data!.endpoints).toEqual([]);
    },
  );

  it("refuses a UTF-16 body sent without a charset (its byte order mark is no UTF-8) with 400", async () => {
    const text = JSON.stringify({ url: "https://partner.example/hooks" });
    const response = await post("/api/v1/webhook_endpoints", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    expect(response.status).toBe(400);
    expect((await response.json()).details).toEqual({ field: "body", code: "malformed_utf8" });
  });

  it.each(["application/json", "application/json; charset=utf-8", "application/json; charset=UTF-8", 'application/json;charset="utf-8"'])(
    "accepts %s",
    async (contentType) => {
      const response = await post(
        "/api/v1/webhook_endpoints",
        JSON.stringify({ url: "https://partner.example/hooks", description: "café" }),
        contentType,
      );
      expect(response.status).toBe(201);
      expect((await response.json()).description).toBe("café");
    },
  );
});
