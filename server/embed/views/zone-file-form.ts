/** What the zone file forms and the routes reading them agree on: the field names, the size limit, and how the previewed text travels. */
import { ZONE_FILE_MAX_LENGTH } from "../../domain/zone-files/zone-transfer.js";

/** The import's own limit (characters), taken as bytes: a file within it is within the import's limit whatever its characters. */
export const ZONE_FILE_MAX_BYTES = ZONE_FILE_MAX_LENGTH;

/** The file input, the pasted text, and (on the apply form) the previewed text carried back with its seal. */
export const ZONE_FIELDS = { file: "zone_file_upload", text: "zone_text", carried: "zone_file", mode: "mode", digest: "digest" } as const;

/**
 * The previewed text as the apply form carries it: base64, because browsers rewrite the line ends
 * of a field's value when they send it (HTML's form submission normalizes them to CRLF), and the
 * text applied must be the very text previewed.
 */
export const carriedValueOf = (text: string) => Buffer.from(text, "utf8").toString("base64");
