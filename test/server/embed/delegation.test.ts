/** Nameservers and DNSSEC in the embedded interface: the switch with its warning, the pending change, DS records. */
import { describe, expect, it } from "vitest";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}/nameservers` });

const path = () => ({ params: { path: { domain_id: signedIn.domainId } } });
const domainRead = async () => (await signedIn.server.api.GET("/api/v1/domains/{domain_id}", path())).data!;
const delegationPage = () => signedIn.browser.get(`/domains/${signedIn.domainId}/nameservers`);
const CUSTOM = "ns1.example-dns.net, NS2.example-dns.net";

describe("GET /domains/{id}/nameservers", () => {
  it("is linked from the domain's page, and says the records are served by our nameservers", async () => {
    const domainPage = await signedIn.browser.get(`/domains/${signedIn.domainId}`);
    expect(domainPage.html).toContain(`<a href="/domains/${signedIn.domainId}/nameservers">Nameservers and DNSSEC</a>`);
    expect(textOf(domainPage.html)).not.toContain("These records are not served");
    const page = await delegationPage();
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("Nameservers of adalovelace.com");
    expect(text).toContain("This domain uses our nameservers");
    expect(text).toContain("With custom nameservers, the records here stop applying");
    expect(page.html).toContain('id="mode-ours" name="mode" value="ours" checked');
    expect(text).toContain("No DS records are published.");
  });
});

describe("POST /domains/{id}/nameservers", () => {
  it("refuses custom nameservers without the confirmation of the warning, changing nothing", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/nameservers`, { mode: "custom", nameservers: CUSTOM });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain("Confirm that the records here stop applying, or keep our nameservers.");
    expect(page.html).toContain(`value="${CUSTOM}"`);
    expect((await domainRead()).nameserver_change).toBeNull();
  });

  it("with the confirmation, the change is pending, then in effect; the domain's page says its records are not served", async () => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/nameservers`, {
      mode: "custom",
      nameservers: CUSTOM,
      confirm: "yes",
    });
    expect(page.url).toBe(`${signedIn.server.embedUrl}/domains/${signedIn.domainId}/nameservers?done=requested`);
    const text = textOf(page.html);
    expect(text).toContain("The nameserver change of adalovelace.com is pending at the registry.");
    expect(text).toContain("A change is pending at the registry: to ns1.example-dns.net, ns2.example-dns.net");
    expect((await domainRead()).nameserver_change!.nameservers).toEqual(["ns1.example-dns.net", "ns2.example-dns.net"]);
    await signedIn.server.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 600 } });
    await signedIn.browser.open(await signedIn.server.loginUrl("u1"));
    expect(textOf((await delegationPage()).html)).toContain(
      "This domain uses custom nameservers (ns1.example-dns.net, ns2.example-dns.net)",
    );
    expect(textOf((await signedIn.browser.get(`/domains/${signedIn.domainId}`)).html)).toContain(
      "These records are not served: the domain uses custom nameservers.",
    );
    const back = await signedIn.browser.post(`/domains/${signedIn.domainId}/nameservers`, { mode: "ours" });
    expect(textOf(back.html)).toContain("A change is pending at the registry: to ns1.partner-dns.invalid, ns2.partner-dns.invalid");
  });

  it.each([
    ["ns1.example-dns.net", "Enter 2 to 13 nameservers."],
    ["ns1.example-dns.net ns1.EXAMPLE-dns.net", "ns1.EXAMPLE-dns.net is listed twice."],
    ["ns1.example-dns.net ns_2.example-dns.net", "ns_2.example-dns.net is not a host name"],
    ["ns1.adalovelace.com ns2.example-dns.net", "ns1.adalovelace.com lies under this domain"],
  ])("refuses %s in words", async (nameservers, message) => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/nameservers`, { mode: "custom", nameservers, confirm: "yes" });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain(message);
  });

  it("in German and French", async () => {
    for (const [language, warning] of [
      ["de", "Mit eigenen Nameservern gelten die Einträge hier nicht mehr"],
      ["fr", "Avec des serveurs de noms personnalisés, les enregistrements d’ici ne s’appliquent plus"],
    ]) {
      const response = await fetch(`${signedIn.server.embedUrl}/domains/${signedIn.domainId}/nameservers`, {
        headers: { cookie: signedIn.browser.cookie!, "accept-language": language! },
      });
      expect(textOf(await response.text())).toContain(warning);
    }
  });
});

describe("DS records", () => {
  it("adds one (digest in lower case), lists it and removes it", async () => {
    const added = await signedIn.browser.post(`/domains/${signedIn.domainId}/ds`, {
      key_tag: "2371",
      algorithm: "13",
      digest_type: "2",
      digest: "AB".repeat(32),
    });
    expect(textOf(added.html)).toContain("The DS record was published at the registry.");
    expect(added.html).toContain("ab".repeat(32));
    const [ds] = (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/dnssec/ds_records", path())).data!.ds_records;
    const removed = await signedIn.browser.post(`/domains/${signedIn.domainId}/ds/${ds!.id}/delete`, {});
    expect(textOf(removed.html)).toContain("The DS record was removed from the registry.");
    expect(textOf(removed.html)).toContain("No DS records are published.");
  });

  it.each([
    [{ key_tag: "70000", digest: "ab".repeat(32) }, "The key tag is a whole number from 0 to 65535."],
    [{ key_tag: "1", digest: "ab".repeat(31) }, "A digest of this type has 64 hexadecimal characters."],
    [{ key_tag: "1", digest: "zz".repeat(32) }, "The digest contains hexadecimal characters only"],
  ])("refuses %j in words", async (fields, message) => {
    const page = await signedIn.browser.post(`/domains/${signedIn.domainId}/ds`, { algorithm: "13", digest_type: "2", ...fields });
    expect(page.status).toBe(422);
    expect(textOf(page.html)).toContain(message);
  });
});
