/** Zone files of a domain, both variants: the export as text, the import as one change set reported per line. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { domainOfPartner } from "../../domain/domains/domain-access.js";
import { exportZone, importZone, zoneRecords, zoneTag } from "../../domain/zone-files/zone-transfer.js";
import { assertIfMatch } from "../../platform/entity-tags.js";
import { apiErrors } from "../../platform/errors.js";

type Handlers = OperationHandlers<RequestContext>;

export const zoneFileHandlers: Pick<Handlers, "exportDomainZone" | "importDomainZone"> = {
  exportDomainZone: async ({ path }, context) => {
    const domain = await domainOfPartner(context.services.store, partnerOf(context).id, path.domain_id);
    const { filename, text, etag } = await exportZone(context.services, domain);
    return { status: 200, text, mediaType: "text/dns", attachment: filename, etag };
  },

  importDomainZone: async ({ path, header, body }, context) => {
    const { services } = context;
    const domain = await domainOfPartner(services.store, partnerOf(context).id, path.domain_id);
    // The zone's tag is of the records as the export read them: an import applies only to the zone exported.
    assertIfMatch(header["If-Match"], { records: await zoneRecords(services, domain) }, "zone");
    const mode = body.mode ?? "merge";
    const dryRun = body.dry_run ?? false;
    const outcome = await importZone(services, domain, body.zone_file, { mode, dryRun });
    if (outcome.counts.refuse > 0) {
      const count = outcome.counts.refuse === 1 ? "1 line is refused" : `${outcome.counts.refuse} lines are refused`;
      throw apiErrors.unprocessable(`The zone file was not imported; ${count}`, {
        code: "zone_import_rejected",
        counts: outcome.counts,
        lines: outcome.lines,
      });
    }
    return {
      status: 200,
      body: { dry_run: dryRun, applied: outcome.applied, mode, counts: outcome.counts, lines: outcome.lines },
      etag: zoneTag(await zoneRecords(services, domain)),
    };
  },
};
