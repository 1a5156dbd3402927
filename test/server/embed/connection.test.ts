/**
 * The domain page's connection section: shown only when the partner declares requirements, what
 * each needs in the user's words, and the one-click fix applied as one change set, refused when the
 * zone changed since the page showed it.
 */
import { describe, expect, it } from "vitest";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}` });

const requireConnection = () =>
  signedIn.server.api.PUT("/api/v1/connection_requirements", {
    body: {
      requirements: [
        { kind: "apex", addresses: ["203.0.113.10"] },
        { kind: "www", target: "sites.partner.example" },
      ],
    },
  });
const records = async () =>
  (
    await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: signedIn.domainId } } })
  ).data!.records.map((record) => `${record.type} ${record.name} ${record.content}`);
const page = () => signedIn.browser.get(`/domains/${signedIn.domainId}`);
const fixOf = (html: string) => /name="fix" value="([^"]+)"/.exec(html)?.[1] ?? "";

describe("the connection section of a domain's page", () => {
  it("is not shown while the partner declares no requirements", async () => {
    expect((await page()).html).not.toContain('id="connection"');
  });

  it("says what is needed, and its button makes exactly those changes, once", async () => {
    await requireConnection();
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: { type: "A", name: "@", content: "192.0.2.1" },
    });
    const before = await page();
    const text = textOf(before.html);
    expect(text).toContain("This domain is not set up for");
    expect(text).toContain("adalovelace.com points to 203.0.113.10 (Needs a change)");
    expect(text).toContain("Change the A record at @ to 203.0.113.10");
    expect(text).toContain("Add a CNAME record at www: sites.partner.example");
    const fixed = await signedIn.browser.post(`/domains/${signedIn.domainId}/connection/fix`, { fix: fixOf(before.html) });
    expect(fixed.redirects[0]!.status).toBe(303);
    expect(textOf(fixed.html)).toContain("2 changes made. This domain is set up for");
    expect((await records()).sort()).toEqual(["A @ 203.0.113.10", "CNAME www sites.partner.example"]);
    expect(fixed.html).not.toContain(`action="/domains/${signedIn.domainId}/connection/fix"`);
    const events = signedIn.server.outbox.events.map((event) => event.type);
    expect(events.filter((type) => type === "domain.connection_changed")).toHaveLength(1);
    expect(events.filter((type) => type.startsWith("dns_record."))).toEqual([
      "dns_record.created",
      "dns_record.updated",
      "dns_record.created",
    ]);
  });

  it("changes nothing when the zone changed since the page was shown", async () => {
    await requireConnection();
    const before = await page();
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: signedIn.domainId } },
      body: { type: "A", name: "@", content: "192.0.2.9" },
    });
    const answer = await signedIn.browser.post(`/domains/${signedIn.domainId}/connection/fix`, { fix: fixOf(before.html) });
    expect(answer.redirects[0]!.location).toBe(`/domains/${signedIn.domainId}#connection`);
    expect(await records()).toEqual(["A @ 192.0.2.9"]);
    expect(textOf(answer.html)).toContain("Change the A record at @ to 203.0.113.10");
  });
});
