/** The Connection section: the partner's connection requirements of this environment, read and replaced as the API does it. */
import type { Request, Response } from "express";
import { inTransaction } from "../../application/transactions.js";
import { readRequirements, type ConnectionRequirement } from "../../domain/connection/connection-requirements.js";
import { replaceRequirements } from "../../domain/connection/connection-service.js";
import { textOf, type FormBody } from "../../web/form-fields.js";
import { formErrors } from "../views/controls.js";
import { connectionPage, formOf, type ConnectionForm } from "../views/connection-view.js";
import { memberOf } from "./dashboard-context.js";
import type { RouteTable } from "../../web/route-table.js";

const SAVED = "Saved: every domain is checked against these requirements from now on.";

export async function showConnection(req: Request, res: Response) {
  const request = memberOf(res);
  const { deployment, store } = request.services;
  const stored = await store.connections.requirementsOf(request.partner.id, deployment.environment);
  res.type("html").send(
    connectionPage({
      chrome: request.chrome("connection"),
      form: formOf(stored.requirements),
      updatedAt: stored.updatedAt,
      message: req.query.done === "saved" ? SAVED : null,
    }),
  );
}

/** The form as a list of requirements, each with the form field it came from (where its problems are shown). */
function requirementsOf(form: ConnectionForm): { requirements: ConnectionRequirement[]; fields: Array<keyof ConnectionForm> } {
  const requirements: ConnectionRequirement[] = [];
  const fields: Array<keyof ConnectionForm> = [];
  const add = (field: keyof ConnectionForm, requirement: ConnectionRequirement) => {
    requirements.push(requirement);
    fields.push(field);
  };
  const addresses = form.apex_addresses.split(/[\s,]+/).filter(Boolean);
  if (addresses.length > 0 && form.apex_target !== "") add("apex_addresses", { kind: "apex", addresses, target: form.apex_target });
  else if (addresses.length > 0) add("apex_addresses", { kind: "apex", addresses });
  else if (form.apex_target !== "") add("apex_target", { kind: "apex", target: form.apex_target });
  if (form.www_target !== "") add("www_target", { kind: "www", target: form.www_target });
  for (const line of form.txt
    .split(/\r?\n/)
    .map((text) => text.trim())
    .filter(Boolean)) {
    const space = line.indexOf(" ");
    add("txt", space < 0 ? { kind: "txt", name: line } : { kind: "txt", name: line.slice(0, space), value: line.slice(space + 1).trim() });
  }
  return { requirements, fields };
}

export async function saveConnection(req: Request, res: Response) {
  const request = memberOf(res);
  const body = req.body as FormBody;
  const form: ConnectionForm = {
    apex_addresses: textOf(body, "apex_addresses"),
    apex_target: textOf(body, "apex_target"),
    www_target: textOf(body, "www_target"),
    // Line breaks separate records: the field read raw rather than as one line of text.
    txt: typeof body.txt === "string" ? body.txt : "",
  };
  const { requirements, fields } = requirementsOf(form);
  const read = readRequirements(requirements);
  if (read.problems) {
    const byField: Record<string, string> = {};
    for (const problem of read.problems) {
      const index = /^requirements\[(\d+)\]/.exec(problem.field)?.[1];
      const field = index === undefined ? "txt" : fields[Number(index)]!;
      byField[field] ??= problem.message;
    }
    const shown = new Set(Object.values(byField));
    const others = read.problems.map((problem) => problem.message).filter((message) => !shown.has(message));
    const stored = await request.services.store.connections.requirementsOf(request.partner.id, request.services.deployment.environment);
    res
      .status(422)
      .type("html")
      .send(
        connectionPage({ chrome: request.chrome("connection"), form, updatedAt: stored.updatedAt, errors: formErrors(byField, others) }),
      );
    return;
  }
  // One unit of work: every domain checked again, and its event sent, with the new list or not at all.
  await inTransaction(
    request.services,
    (tx) => replaceRequirements(tx, request.partner.id, read.requirements),
    "serializable",
    request.partner.id,
  );
  res.redirect(303, "/connection?done=saved");
}

export const CONNECTION_ROUTES: RouteTable = {
  "/connection": { get: showConnection, post: saveConnection },
};
