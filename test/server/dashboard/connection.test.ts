/** The dashboard's Connection section: the partner's connection requirements, checked as the API checks them, and the domains checked again when they change. */
import { describe, expect, it } from "vitest";
import { visibleText } from "../../support/dashboard-browser.js";
import { useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer();

describe("the connection section", () => {
  it("shows none at first, refuses a broken field naming it, and stores what the API then answers", async () => {
    const browser = await server.signedIn();
    const empty = await browser.get("/connection");
    expect(visibleText(empty.text)).toContain("None yet: every domain's check answers no_requirements.");
    const refused = await browser.post("/connection", {
      apex_addresses: "203.0.113.10 203.0.113.300",
      apex_target: "",
      www_target: "localhost",
      txt: "",
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('id="apex-addresses-error"');
    expect(refused.text).toContain('id="www-target-error"');
    expect(visibleText(refused.text)).toContain("203.0.113.300 is not an IPv4 or IPv6 address");
    expect((await server.api.api.GET("/api/v1/connection_requirements")).data!.requirements).toEqual([]);

    const saved = await browser.post("/connection", {
      apex_addresses: "203.0.113.10, 2001:DB8::10",
      apex_target: "",
      www_target: "Sites.Partner.example",
      txt: "_partner-verify token-8f2k\r\n\r\n_other two words",
    });
    expect(saved.location).toBe("/connection?done=saved");
    expect((await server.api.api.GET("/api/v1/connection_requirements")).data!.requirements).toEqual([
      { kind: "apex", addresses: ["203.0.113.10", "2001:db8::10"] },
      { kind: "www", target: "sites.partner.example" },
      { kind: "txt", name: "_partner-verify", value: "token-8f2k" },
      { kind: "txt", name: "_other", value: "two words" },
    ]);
    const shown = await browser.get("/connection?done=saved");
    expect(visibleText(shown.text)).toContain("Saved: every domain is checked against these requirements from now on.");
    expect(shown.text).toContain('value="203.0.113.10 2001:db8::10"');
    // Partner B's list is its own.
    expect((await server.api.otherPartner.GET("/api/v1/connection_requirements")).data!.requirements).toEqual([]);
  });

  it("checks the partner's domains again when the list changes, with the event", async () => {
    const { api } = server;
    await api.api.POST("/api/v1/users", { body: { user_identifier: "ada" } as never });
    const domainId = await api.registerDomainFor("ada", "adalovelace.com");
    await api.api.POST("/api/v1/domains/{domain_id}/dns", {
      params: { path: { domain_id: domainId } },
      body: { type: "TXT", name: "_verify", content: "yes" },
    });
    const browser = await server.signedIn();
    await browser.get("/connection");
    await browser.post("/connection", { apex_addresses: "", apex_target: "", www_target: "", txt: "_verify yes" });
    const changed = api.outbox.events.filter((event) => event.type === "domain.connection_changed");
    expect(changed.map((event) => event.payload)).toEqual([
      { domain_id: domainId, data: { domain_id: domainId, domain_name: "adalovelace.com", configured: true, status: "configured" } },
    ]);
  });
});
