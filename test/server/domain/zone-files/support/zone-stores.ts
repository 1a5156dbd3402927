/**
 * Record sets as the service stores them (drafts run through its own record rules, so content is
 * in canonical form), varied the way an export must survive: every type, long and escaped TXT, IDN.
 */
import { parseRecord, type RecordDraft, storedFields } from "../../../../../server/domain/dns/record-rules.js";
import type { ZoneExportOptions, ZoneRecordInput } from "../../../../../server/domain/zone-files/zone-file.js";

export const SERVICE_NAMESERVERS = ["ns1.service.test", "ns2.service.test"] as const;

export const EXPORT_OPTIONS: ZoneExportOptions = {
  nameservers: SERVICE_NAMESERVERS,
  serial: 2026112601,
  defaultTtl: 300,
  hostmaster: "hostmaster@service.test",
};

type Draft = Partial<RecordDraft> & Pick<RecordDraft, "type" | "content">;

/** The drafts as the service would store them; a draft its rules refuse is a mistake in the fixture. */
export function stored(domainName: string, drafts: readonly Draft[]): ZoneRecordInput[] {
  return drafts.map((draft) => {
    const parse = parseRecord({ name: "@", ttl: 300, priority: null, ...draft }, domainName);
    if (parse.violations) throw new Error(`fixture ${JSON.stringify(draft)}: ${JSON.stringify(parse.violations)}`);
    return storedFields(parse.record);
  });
}

const DKIM_KEY = `v=DKIM1; k=rsa; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(9)}IDAQAB`;

export interface ZoneStore {
  label: string;
  domain: string;
  records: ZoneRecordInput[];
}

export const ZONE_STORES: readonly ZoneStore[] = [
  { label: "an empty zone", domain: "example.com", records: [] },
  {
    label: "every type the service manages",
    domain: "example.com",
    records: stored("example.com", [
      { type: "A", content: "192.0.2.1" },
      { type: "AAAA", content: "2001:db8::1" },
      { type: "A", name: "www", content: "192.0.2.2", ttl: 3600 },
      { type: "CNAME", name: "blog", content: "hosting.example.net" },
      { type: "CNAME", name: "shop", content: "www.example.com." },
      { type: "MX", content: "mail.example.com", priority: 10 },
      { type: "MX", content: "backup-mx.example.net", priority: 20 },
      { type: "A", name: "mail", content: "192.0.2.25" },
      { type: "TXT", content: "v=spf1 include:_spf.example.net ~all" },
      { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=reject; rua=mailto:dmarc@example.com" },
      { type: "SRV", name: "_sip._tcp", content: "10 60 5060 sip.example.com", priority: 10 },
      { type: "A", name: "sip", content: "192.0.2.50" },
      { type: "SRV", name: "_xmpp._tcp", content: "0 0 0 ." },
      { type: "NS", name: "delegated", content: "ns1.other-provider.net" },
      { type: "NS", name: "delegated", content: "ns2.other-provider.net" },
      { type: "CAA", content: '0 issue "letsencrypt.org"' },
      { type: "CAA", content: '0 issuewild ";"' },
      { type: "CAA", content: '128 iodef "mailto:security@example.com"' },
      { type: "ALIAS", content: "lb.hosting.example.net" },
      { type: "HTTPS", content: "1 . alpn=h2,h3 port=443 ipv4hint=192.0.2.1", priority: 1 },
      { type: "HTTPS", name: "www", content: "0 cdn.example.net", priority: 0 },
      { type: "SVCB", name: "_dns", content: "1 dns.example.net alpn=dot port=853", priority: 1 },
      { type: "TLSA", name: "_443._tcp.www", content: `3 1 1 ${"ab".repeat(32)}` },
      { type: "A", name: "*.apps", content: "192.0.2.80" },
    ]),
  },
  {
    label: "long and escaped TXT",
    domain: "example.org",
    records: stored("example.org", [
      { type: "TXT", name: "selector1._domainkey", content: `"${DKIM_KEY.slice(0, 255)}" "${DKIM_KEY.slice(255)}"` },
      { type: "TXT", name: "exact", content: "x".repeat(255) },
      { type: "TXT", name: "quotes", content: '"say \\"hello\\"" "back\\\\slash"' },
      { type: "TXT", name: "specials", content: "semi;colon (paren) tab\there" },
      { type: "TXT", name: "unicode", content: "grüße ünïcødé ".repeat(10).trim() },
      { type: "TXT", name: "empty", content: '""' },
      { type: "TXT", name: "spaces", content: '"  leading and trailing  "' },
      { type: "TXT", name: "many", content: `"${"a".repeat(255)}" "${"b".repeat(255)}" "${"c".repeat(10)}"` },
    ]),
  },
  {
    label: "an internationalised domain",
    domain: "xn--mnchen-3ya.de",
    records: stored("xn--mnchen-3ya.de", [
      { type: "A", content: "192.0.2.10" },
      { type: "A", name: "xn--bcher-kva", content: "192.0.2.11" },
      { type: "CNAME", name: "www", content: "xn--mnchen-3ya.de" },
      { type: "MX", content: "mx.xn--bcher-kva.example", priority: 5 },
      { type: "TXT", name: "xn--bcher-kva", content: "Bücher in München" },
    ]),
  },
];
