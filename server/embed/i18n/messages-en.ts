/**
 * The embedded interface's words in English: every label, hint, notice and error a page shows, in
 * one place, written for a domain owner rather than a developer. Other languages implement the same
 * shape (Messages), so a missing sentence fails to compile. Values arrive already formatted for the
 * reader's locale (dates, prices, numbers); sentences are in sentence case and end with a full stop
 * where they are sentences.
 */
import type { DnsRecordRow } from "../../domain/dns/record-store.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { plural } from "./plural.js";

type RecordType = DnsRecordRow["type"];

const years = (n: number) => plural("en", n, { one: "# year", other: "# years" });
const records = (n: number) => plural("en", n, { one: "# record", other: "# records" });

export const en = {
  layout: {
    skipLink: "Skip to content",
    mainNavigation: "Main",
    yourDomains: "Your domains",
    findDomain: "Find a domain",
    signedInAs: "Signed in as",
    sandboxBanner: "Sandbox: purchases and renewals are simulated; no payment is taken.",
    logoAlt: (partner: string) => `${partner} logo`,
  },
  controls: {
    errorPrefix: "Error:",
    problemTitle: "There is a problem",
    years,
  },
  statuses: { active: "Active", pending: "Pending", expired: "Expired", suspended: "Suspended" } satisfies Record<
    DomainRow["status"],
    string
  >,
  on: "On",
  off: "Off",
  cancel: "Cancel",
  domains: {
    title: "Your domains",
    empty: "You have no domains yet.",
    findOne: "Find a domain",
    status: "Status",
    expires: "Expires",
    dnsRecords: "DNS records",
    recordCount: records,
    ofDomain: (name: string) => ` of ${name}`,
    settingsOf: (name: string) => `Settings of ${name}`,
    autoRenew: "Auto-renew",
    whoisPrivacy: "WHOIS privacy",
    renewFor: (name: string) => `Renew ${name} for`,
    perYear: (price: string) => `${price} per year`,
    reviewRenewal: "Review renewal",
    cannotRenew: (name: string, status: string) => `${name} cannot be renewed while it is ${status.toLowerCase()}.`,
    renewedToTheLimit: (name: string) => `${name} is registered as far ahead as registries allow (10 years).`,
    settingNotChanged: "The setting was not changed",
    changedSinceShown:
      "This domain changed after the page was shown (perhaps in your application), so nothing was changed. The switches now show its current settings.",
  },
  renewal: {
    title: (name: string) => `Renew ${name}`,
    intro: "Check the renewal before you confirm it.",
    domain: "Domain",
    period: "Renewal period",
    pricePerYear: "Price per year",
    total: "Total",
    runsUntil: "Registered until",
    confirm: (total: string) => `Renew for ${total}`,
    notRenewed: "The domain was not renewed",
    priceChanged: (price: string) =>
      `The renewal price changed to ${price} per year since you reviewed it. Nothing was charged; check the new total.`,
  },
  privacy: {
    title: (name: string) => `Turn off WHOIS privacy for ${name}?`,
    warning: "With WHOIS privacy off, the contact details you registered the domain with become public in the WHOIS and RDAP directories:",
    published: ["your name and organisation", "your postal address", "your e-mail address", "your phone number"],
    consequence:
      "Anyone can look them up, including people who collect addresses for spam. Copies kept by others may stay public after you turn it back on.",
    confirm: "Turn off WHOIS privacy",
    keep: "Keep it on",
  },
  search: {
    title: "Find a domain",
    label: "Domain name or word",
    hint: "A name such as adalovelace.com, or a word such as adalovelace to see every ending",
    button: "Search",
    available: "Available",
    taken: "Taken",
    premium: "Premium name",
    premiumHint: "Premium names are priced higher by the registry.",
    perYear: (price: string) => `${price} per year`,
    registerFor: "Register for",
    reviewShort: "Review purchase",
    otherNames: "Other names",
    alternatives: "Available alternatives",
    everyEnding: (word: string) => `Names with “${word}”`,
    endingsIntro: "Every ending we offer, with its price for the first year.",
    choose: "Choose",
    closedEnding: "Not open for registration",
    resultTitle: (name: string) => `${name}: find a domain`,
  },
  purchase: {
    title: "Review your purchase",
    intro: "Check the name, the period and the total before you buy.",
    domain: "Domain",
    period: "Registration period",
    pricePerYear: "Price per year",
    total: "Total",
    registeredUntil: "Registered until",
    autoRenewNote: (price: string) => `Auto-renew is on: the domain renews each year at ${price} until you turn it off.`,
    premiumNote: "This is a premium name: the registry prices it above the standard price.",
    confirm: (total: string) => `Buy for ${total}`,
    change: "Change",
    notBought: "The domain was not bought",
    priceChanged: (price: string) =>
      `The price of this name changed to ${price} per year since you reviewed it. Nothing was charged; check the new total.`,
  },
  notices: {
    purchased: (name: string, charged: string, period: string, until: string) =>
      `${name} is yours. ${charged} was charged for ${period}; it is registered until ${until}.`,
    renewed: (name: string, charged: string, period: string, until: string) =>
      `${name} is renewed for ${period}: ${charged} was charged, and it is registered until ${until}.`,
    autoRenewOn: (name: string, date: string, price: string) => `Auto-renew is on for ${name}: it renews on ${date} for ${price}.`,
    autoRenewOff: (name: string, date: string) => `Auto-renew is off for ${name}. It expires on ${date} unless you renew it.`,
    privacyOn: (name: string) => `WHOIS privacy is on for ${name}: your contact details are hidden.`,
    privacyOff: (name: string) => `WHOIS privacy is off for ${name}: your contact details are public in WHOIS.`,
    recordAdded: (type: string, name: string, domain: string) => `The ${type} record ${name} is added to ${domain}.`,
    recordSaved: (type: string, name: string) => `The ${type} record ${name} is saved.`,
    recordDeleted: (type: string, name: string) => `The ${type} record ${name} is deleted.`,
    restore: "Restore it",
    restoreWithin: (minutes: number) => `You can restore it for ${plural("en", minutes, { one: "# minute", other: "# minutes" })}.`,
    recordRestored: (type: string, name: string) => `The ${type} record ${name} is restored.`,
    templateApplied: (title: string, count: number, domain: string) => `${title}: ${records(count)} added to ${domain}.`,
  },
  dns: {
    back: "Your domains",
    status: "Status",
    expires: "Expires",
    autoRenew: "Auto-renew",
    whoisPrivacy: "WHOIS privacy",
    nameServers: "Name servers",
    records: "DNS records",
    recordsCaption: (domain: string) => `DNS records of ${domain}`,
    none: "No DNS records yet. Add one below, or apply a template.",
    columns: { type: "Type", name: "Name", content: "Value", ttl: "TTL", actions: "Actions" },
    sortedAscending: "sorted A to Z",
    sortedDescending: "sorted Z to A",
    priority: (priority: number) => `priority ${priority}`,
    edit: "Edit",
    delete: "Delete",
    recordLabel: (type: string, name: string) => `${type} record ${name}`,
    add: "Add a record",
    addButton: "Add record",
    notAdded: "The record was not added",
    type: "Type",
    name: "Name",
    nameHint: (domain: string) => `@ for ${domain} itself, or a name such as www`,
    value: "Value",
    ttl: "TTL (seconds)",
    ttlHint: (defaultTtl: string) => `How long resolvers may keep the answer: 60 to 86,400 seconds. Usually ${defaultTtl}.`,
    priorityLabel: "Priority",
    priorityHint: "Mail servers with lower numbers are tried first",
    typeLabels: {
      A: "IPv4 address",
      AAAA: "IPv6 address",
      CNAME: "Target host name",
      MX: "Mail server",
      NS: "Name server",
      SRV: "Service",
      TXT: "Text",
    } satisfies Record<RecordType, string>,
    typeHints: {
      A: "An IPv4 address, such as 192.0.2.1",
      AAAA: "An IPv6 address, such as 2001:db8::1",
      CNAME: "The host name this name stands for, such as example.net",
      MX: "The mail server's host name, such as mail.example.com",
      NS: "A name server's host name, such as ns1.example.net",
      SRV: "Priority, weight, port and target, such as 10 5 5060 sip.example.com",
      TXT: "Any text; text longer than 255 characters is split into quoted parts",
    } satisfies Record<RecordType, string>,
    ttlWords: (seconds: number) =>
      seconds % 3600 === 0
        ? plural("en", seconds / 3600, { one: "# hour", other: "# hours" })
        : seconds % 60 === 0
          ? plural("en", seconds / 60, { one: "# minute", other: "# minutes" })
          : plural("en", seconds, { one: "# second", other: "# seconds" }),
  },
  edit: {
    title: (type: string, name: string) => `Edit ${type} record ${name}`,
    pageTitle: (type: string, domain: string) => `Edit ${type} record: ${domain}`,
    type: "Type",
    save: "Save record",
    notSaved: "The record was not saved",
    changedTitle: "Someone else changed this record while you were editing it",
    changedNothingSaved: "Nothing was saved. The record now reads:",
    changedName: "Name",
    changedValue: "Value",
    changedTtl: "TTL",
    changedKeep: "Your changes are still in the form below. Save again to replace the current values with yours, or cancel to keep them.",
  },
  deletion: {
    title: (type: string, name: string) => `Delete the ${type} record ${name}?`,
    intro: "This record stops answering as soon as it is deleted. You can restore it for a few minutes afterwards.",
    confirm: "Delete record",
    changed:
      "That record changed after this page was shown, so it was not deleted. Its current values are below; delete it again if you still want to.",
    tooLate: "It is too late to restore that record. Add it again below if you need it.",
  },
  templates: {
    title: "Apply a template",
    intro: "A template adds the records a service needs, all together or none.",
    addsThese: "Adds these records:",
    review: (title: string) => `Review ${title}`,
    reviewTitle: (title: string, domain: string) => `Add ${title} records to ${domain}?`,
    reviewIntro: "These records will be added, all together:",
    apply: (count: number) => `Add ${records(count)}`,
    notApplied: "The template was not applied",
    titles: {
      "google-workspace": "Google Workspace",
      "microsoft-365": "Microsoft 365",
      fastmail: "Fastmail",
      "github-pages": "GitHub Pages",
      "web-host": "Web host",
      "spf-dmarc": "SPF and DMARC",
    },
    variables: {
      mx_host: {
        label: "Microsoft 365 mail server",
        hint: "Shown in the Microsoft 365 admin centre, such as example-com.mail.protection.outlook.com",
        missing: "Enter the mail server Microsoft 365 gives you.",
      },
      github_user: {
        label: "GitHub user or organisation name",
        hint: "The name in your github.io address",
        missing: "Enter your GitHub user or organisation name.",
      },
      ip: { label: "Your server's IPv4 address", hint: "Such as 192.0.2.1", missing: "Enter your server's IPv4 address." },
      report_email: {
        label: "E-mail address for DMARC reports",
        hint: "Mail servers send their reports about your domain here",
        missing: "Enter the e-mail address that gets DMARC reports.",
      },
      policy: {
        label: "What receivers do with mail that fails the checks",
        hint: "Start with report only, then tighten it",
        missing: "Choose what receivers do.",
      },
      spf_include: {
        label: "Servers allowed to send your mail",
        hint: "SPF mechanisms, such as mx or include:_spf.example.net; mx by default",
        missing: "Enter the servers allowed to send your mail.",
      },
    } as Record<string, { label: string; hint: string; missing: string }>,
    policyChoices: { none: "Report only (none)", quarantine: "Send to spam (quarantine)", reject: "Refuse it (reject)" } as Record<
      string,
      string
    >,
    placeholder: (label: string) => `[${label}]`,
  },
  errors: {
    name: "Enter @ for the domain itself, or a name of letters, digits and hyphens, such as www or mail.",
    nameTooLong: (room: number) =>
      `This name is too long: with the domain it may have at most ${plural("en", room, { one: "# character", other: "# characters" })}.`,
    cnameAtRoot: "A CNAME record cannot be at @, the domain itself. Use a name such as www, or an A record.",
    ttl: "Enter a TTL from 60 to 86,400 seconds.",
    content: {
      A: "Enter an IPv4 address such as 192.0.2.1.",
      AAAA: "Enter an IPv6 address such as 2001:db8::1.",
      CNAME: "Enter a host name such as example.net.",
      MX: "Enter the mail server's host name, such as mail.example.com.",
      NS: "Enter a name server's host name, such as ns1.example.net.",
      SRV: "Enter priority, weight, port and target separated by spaces, such as 10 5 5060 sip.example.com.",
      TXT: "Enter the text. Put each part of text longer than 255 characters in quotes.",
    } satisfies Record<RecordType, string>,
    priorityMissing: "Enter a priority for the mail server, such as 10.",
    priorityNumber: "Enter the priority as a whole number, such as 10.",
    prioritySrv: "The priority must be the first number of the value.",
    priorityUnused: "Only MX records have a priority. Leave it empty.",
    duplicate: (type: string, name: string) => `${name} already has this ${type} record.`,
    cnameTaken: (name: string) => `${name} already has other records, so it cannot also have a CNAME record.`,
    cnameHere: (name: string) => `${name} has a CNAME record, so it cannot have other records.`,
    spfTwice: (name: string) => `${name} already has an SPF record, and a name can have only one. Edit that record instead.`,
    dmarcTwice: (name: string) => `${name} already has a DMARC record, and a name can have only one. Edit that record instead.`,
    recordLimit: (max: string) => `This domain has the most records a domain can hold (${max}). Delete one first.`,
    templateRecord: (type: string, name: string, problem: string) => `The template's ${type} record ${name}: ${problem}`,
    variableFormat: {
      hostname: "Enter a host name such as mail.example.com.",
      ipv4: "Enter an IPv4 address such as 192.0.2.1.",
      email: "Enter an e-mail address such as dmarc@example.com.",
      spf_mechanisms: "Enter SPF mechanisms separated by spaces, such as mx include:_spf.example.net.",
      text: "Use letters, digits and single hyphens.",
    } as Record<string, string>,
    variableTooLong: (max: number) => `Use at most ${plural("en", max, { one: "# character", other: "# characters" })}.`,
    choose: "Choose one of the options.",
    domainName: "Enter a domain name such as adalovelace.com, or a word to search for.",
    domainCharacters: "Domain names can use letters, digits and hyphens; this one has a character they cannot.",
    endingNotOffered: (tld: string) => `Names ending in .${tld} are not offered here. Try a word alone to see every ending.`,
    endingClosed: (tld: string) => `New .${tld} names cannot be registered at the moment.`,
    notAvailable: (name: string) => `${name} is not available any more: someone registered it a moment ago.`,
    years: "Choose 1 to 10 years.",
    renewAtMost: (name: string, max: number) =>
      max === 0
        ? `${name} is registered as far ahead as registries allow (10 years).`
        : `${name} can be renewed for at most ${years(max)} more: a registration runs at most 10 years ahead.`,
    notRenewable: (name: string, status: string) => `${name} cannot be renewed while it is ${status.toLowerCase()}.`,
    plainText: "Use plain text, without control characters.",
    reload: "This form was not sent as the page made it. Reload the page and try again.",
    unexpected: "This could not be done. Reload the page and try again.",
  },
  pages: {
    sessionEndedTitle: "Session expired",
    sessionEnded: "This session has expired",
    sessionEndedBody: "For your security, this page stays open for a limited time. Reopen it from the application you came from.",
    notFoundTitle: "Not found",
    notFound: "Page not found",
    goToDomains: "Go to your domains",
    refusedTitle: "Form expired",
    refused: "This form could not be sent",
    refusedBody: "Reload the page and try again. If it happens again, reopen this page from the application.",
    problemTitle: "Something went wrong",
    problemBody: "Try again in a moment.",
    unavailableTitle: "Briefly unavailable",
    unavailableBody: "The service is restarting. Reload this page in a few seconds; nothing you did is lost.",
  },
};

export type Messages = typeof en;
