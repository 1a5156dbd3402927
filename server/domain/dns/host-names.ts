/** Host names in record content (CNAME, MX, NS, SRV, ALIAS, HTTPS and SVCB targets, CAA issuers). */
import { isAcceptableAsciiLabel } from "../catalog/domain-names.js";

const HOST_LABEL = "(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)";
const HOST_NAME = new RegExp(`^(?=.{1,253}\\.?$)${HOST_LABEL}(?:\\.${HOST_LABEL})+\\.?$`);

export const isHostName = (host: string) => HOST_NAME.test(host) && host.replace(/\.$/, "").split(".").every(isAcceptableAsciiLabel);

/** Host names are case-insensitive (RFC 4343) and relative to the root: lower case, no trailing dot. */
export const canonicalHostName = (host: string) => host.toLowerCase().replace(/\.$/, "");
