/** API keys: create with a name and full or restricted access (shown once), list, revoke at once, roll with a grace period. */
import type { Request, Response } from "express";
import { createKey, keyOfPartner, keysOfPartner, revokeKey, rollKey } from "../../partners/keys/key-management.js";
import { apiErrors } from "../../platform/errors.js";
import { choiceOf, type FormBody } from "../../web/form-fields.js";
import { memberOf, type MemberRequest } from "./dashboard-context.js";
import { keyOfForm, readKeyForm } from "./key-grant-form.js";
import { ACME_PRESET, EMPTY_KEY_FORM } from "../views/key-form-view.js";
import { GRACE_CHOICES, keysPage, revokeKeyPage, rollKeyPage } from "../views/keys-view.js";
import type { RouteTable } from "../../web/route-table.js";

const environmentOf = (request: MemberRequest) => request.dashboard.services.deployment.environment;
const now = (request: MemberRequest) => request.dashboard.services.clock.now();
const partnerOf = (request: MemberRequest) => ({ id: request.partner.id, name: request.partner.name });

const keyStoreOf = (request: MemberRequest) => request.dashboard.services.persistence.apiKeys;

const keysOf = (request: MemberRequest) => keysOfPartner(keyStoreOf(request), request.partner.id, environmentOf(request), now(request));

async function keyOf(request: MemberRequest, id: string) {
  const key = await keyOfPartner(keyStoreOf(request), request.partner.id, environmentOf(request), id, now(request));
  if (!key) throw apiErrors.notFound("Key", id);
  return key;
}

const MESSAGES: Record<string, string> = { revoked: "The key is revoked: requests with it are refused from now on." };

export async function showKeys(req: Request, res: Response) {
  const request = memberOf(res);
  const message =
    typeof req.query.done === "string"
      ? (MESSAGES[req.query.done] ?? null)
      : req.query.welcome === "1"
        ? "Welcome! Create a key to start calling the API."
        : null;
  // A preset fills the form in (a link, so it works without the script); an unknown one is the empty form.
  const form = req.query.preset === "acme" ? ACME_PRESET : EMPTY_KEY_FORM;
  res
    .type("html")
    .send(
      keysPage({ chrome: request.chrome("keys"), keys: await keysOf(request), apiBaseUrl: request.dashboard.apiBaseUrl, message, form }),
    );
}

export async function createKeyFromForm(req: Request, res: Response) {
  const request = memberOf(res);
  const form = readKeyForm(req.body as FormBody);
  const asked = keyOfForm(form, now(request));
  if ("errors" in asked) {
    res
      .status(422)
      .type("html")
      .send(
        keysPage({
          chrome: request.chrome("keys"),
          keys: await keysOf(request),
          apiBaseUrl: request.dashboard.apiBaseUrl,
          form,
          errors: asked.errors,
        }),
      );
    return;
  }
  const created = await createKey(keyStoreOf(request), partnerOf(request), environmentOf(request), asked.name, now(request), asked.grant);
  res
    .status(201)
    .type("html")
    .send(keysPage({ chrome: request.chrome("keys"), keys: await keysOf(request), apiBaseUrl: request.dashboard.apiBaseUrl, created }));
}

export async function showKeyRevocation(req: Request, res: Response) {
  const request = memberOf(res);
  res.type("html").send(revokeKeyPage(request.chrome("keys"), await keyOf(request, String(req.params.keyId))));
}

export async function revokeKeyFromForm(req: Request, res: Response) {
  const request = memberOf(res);
  if (!(await revokeKey(keyStoreOf(request), request.partner.id, String(req.params.keyId))))
    throw apiErrors.notFound("Key", String(req.params.keyId));
  res.redirect(303, "/keys?done=revoked");
}

export async function showKeyRoll(req: Request, res: Response) {
  const request = memberOf(res);
  res.type("html").send(rollKeyPage(request.chrome("keys"), await keyOf(request, String(req.params.keyId))));
}

export async function rollKeyFromForm(req: Request, res: Response) {
  const request = memberOf(res);
  const grace = Number(
    choiceOf(
      req.body as FormBody,
      "grace_seconds",
      GRACE_CHOICES.map((choice) => choice.value),
    ),
  );
  const rolled = await rollKey(
    keyStoreOf(request),
    partnerOf(request),
    environmentOf(request),
    String(req.params.keyId),
    grace,
    now(request),
  );
  if (!rolled) throw apiErrors.notFound("Key", String(req.params.keyId));
  res
    .status(201)
    .type("html")
    .send(
      keysPage({
        chrome: request.chrome("keys"),
        keys: await keysOf(request),
        apiBaseUrl: request.dashboard.apiBaseUrl,
        created: rolled.made,
        message: grace === 0 ? "The old key is refused from now on." : "The old key keeps working until the time in its Expires column.",
      }),
    );
}

export const KEY_ROUTES: RouteTable = {
  "/keys": { get: showKeys, post: createKeyFromForm },
  "/keys/:keyId/revoke": { get: showKeyRevocation, post: revokeKeyFromForm },
  "/keys/:keyId/roll": { get: showKeyRoll, post: rollKeyFromForm },
};
