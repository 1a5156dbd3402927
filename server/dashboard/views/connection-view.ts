/** The Connection section: what a domain connected to the partner's platform must have in its DNS, which the API's domain check and the embedded interface's fix read. */
import type { ConnectionRequirement } from "../../domain/connection/connection-requirements.js";
import { MAX_APEX_ADDRESSES, MAX_REQUIREMENTS } from "../../domain/connection/connection-requirements.js";
import { html } from "../../web/html.js";
import { csrfInput, errorSummary, input, NO_ERRORS, textarea, type FormErrors } from "./controls.js";
import { notice, page, type Chrome } from "./layout.js";

/** The form's fields, as shown or as sent. */
export interface ConnectionForm {
  apex_addresses: string;
  apex_target: string;
  www_target: string;
  txt: string;
}

/** The form of a stored list: the fields it fills. */
export function formOf(requirements: readonly ConnectionRequirement[]): ConnectionForm {
  const apex = requirements.find((requirement) => requirement.kind === "apex");
  return {
    apex_addresses: apex?.addresses?.join(" ") ?? "",
    apex_target: apex?.target ?? "",
    www_target: requirements.find((requirement) => requirement.kind === "www")?.target ?? "",
    txt: requirements
      .filter((requirement) => requirement.kind === "txt")
      .map((requirement) => `${requirement.name} ${requirement.value}`)
      .join("\n"),
  };
}

export function connectionPage(options: {
  chrome: Chrome;
  form: ConnectionForm;
  updatedAt: Date | null;
  errors?: FormErrors;
  message?: string | null;
}): string {
  const { chrome, form } = options;
  const errors = options.errors ?? NO_ERRORS;
  return page(
    "Connection",
    html`<h1>Connection</h1>
<p>What a domain connected to your platform must have in its DNS, in this environment. <code>GET /api/v1/domains/{domain_id}/connection</code> checks a domain against it and answers the records that fix it; the embedded interface offers your users that fix in one click, and <code>domain.connection_changed</code> tells you when a domain becomes set up or stops being so. The API reads and replaces the same list (<code>/api/v1/connection_requirements</code>).</p>
${notice(options.message)}
<section class="card" aria-labelledby="requirements-heading"><h2 id="requirements-heading">Requirements of this environment</h2>
<p>${options.updatedAt ? html`Last changed <time datetime="${options.updatedAt.toISOString()}">${options.updatedAt.toISOString().slice(0, 16).replace("T", " ")} UTC</time>.` : "None yet: every domain's check answers no_requirements."} Leave a field empty for no requirement of its kind; at most ${MAX_REQUIREMENTS} in all.</p>
${errorSummary(errors)}
<form method="post" action="/connection" novalidate>
${csrfInput(chrome.csrfToken)}
${input({ id: "apex-addresses", name: "apex_addresses", label: "The domain's addresses (apex A and AAAA records)", value: form.apex_addresses, hint: `IPv4 and IPv6 addresses separated by spaces, at most ${MAX_APEX_ADDRESSES}, such as 203.0.113.10. The apex must answer exactly these.`, error: errors.fields.apex_addresses })}
${input({ id: "apex-target", name: "apex_target", label: "Or the apex's alias target (ALIAS)", value: form.apex_target, hint: "A host name, such as apex.sites.example.net, instead of addresses.", error: errors.fields.apex_target })}
${input({ id: "www-target", name: "www_target", label: "The www host's target (CNAME)", value: form.www_target, hint: "A host name, such as sites.example.net.", error: errors.fields.www_target })}
${textarea({ id: "txt", name: "txt", label: "Verification records (TXT)", rows: 4, value: form.txt, hint: "One per line: the name, a space, then the value, such as _partner-verify token-8f2k.", error: errors.fields.txt })}
<button type="submit" class="button button-primary">Save requirements</button>
</form>
</section>`,
    chrome,
  );
}
