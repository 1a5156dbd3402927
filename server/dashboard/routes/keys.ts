/** API keys: create with a name (shown once), list, revoke at once, roll with a grace period. */
import type { Express, Response } from "express";
import { createKey, keyNameProblem, rollKey } from "../../auth/key-management.js";
import { apiErrors } from "../../errors.js";
import { choiceOf, textOf, type FormBody } from "../../web/form-fields.js";
import { memberOf, type MemberRequest } from "../dashboard-context.js";
import { formErrors } from "../views/controls.js";
import { GRACE_CHOICES, keysPage, revokeKeyPage, rollKeyPage } from "../views/keys-view.js";

const environmentOf = (request: MemberRequest) => request.dashboard.services.deployment.environment;
const now = (request: MemberRequest) => request.dashboard.services.clock.now();
const partnerOf = (request: MemberRequest) => ({ id: request.partner.id, name: request.partner.name });

async function keysOf(request: MemberRequest) {
  return request.dashboard.services.persistence.apiKeys.keysOfPartner(request.partner.id, environmentOf(request), now(request));
}

async function keyOf(request: MemberRequest, id: string) {
  const key = (await keysOf(request)).find((candidate) => candidate.id === id);
  if (!key) throw apiErrors.notFound("Key", id);
  return key;
}

const MESSAGES: Record<string, string> = { revoked: "The key is revoked: requests with it are refused from now on." };

export function registerKeyRoutes(app: Express): void {
  app.get("/keys", async (req, res: Response) => {
    const request = memberOf(res);
    const message =
      typeof req.query.done === "string"
        ? (MESSAGES[req.query.done] ?? null)
        : req.query.welcome === "1"
          ? "Welcome! Create a key to start calling the API."
          : null;
    res
      .type("html")
      .send(keysPage({ chrome: request.chrome("keys"), keys: await keysOf(request), apiBaseUrl: request.dashboard.apiBaseUrl, message }));
  });

  app.post("/keys", async (req, res) => {
    const request = memberOf(res);
    const name = textOf(req.body as FormBody, "name");
    const problem = keyNameProblem(name);
    if (problem) {
      res
        .status(422)
        .type("html")
        .send(
          keysPage({
            chrome: request.chrome("keys"),
            keys: await keysOf(request),
            apiBaseUrl: request.dashboard.apiBaseUrl,
            name,
            errors: formErrors({ name: problem }),
          }),
        );
      return;
    }
    const created = await createKey(
      request.dashboard.services.persistence.apiKeys,
      partnerOf(request),
      environmentOf(request),
      name,
      now(request),
    );
    res
      .status(201)
      .type("html")
      .send(keysPage({ chrome: request.chrome("keys"), keys: await keysOf(request), apiBaseUrl: request.dashboard.apiBaseUrl, created }));
  });

  app.get("/keys/:keyId/revoke", async (req, res) => {
    const request = memberOf(res);
    res.type("html").send(revokeKeyPage(request.chrome("keys"), await keyOf(request, String(req.params.keyId))));
  });

  app.post("/keys/:keyId/revoke", async (req, res) => {
    const request = memberOf(res);
    if (!(await request.dashboard.services.persistence.apiKeys.revokeKeyById(request.partner.id, String(req.params.keyId))))
      throw apiErrors.notFound("Key", String(req.params.keyId));
    res.redirect(303, "/keys?done=revoked");
  });

  app.get("/keys/:keyId/roll", async (req, res) => {
    const request = memberOf(res);
    res.type("html").send(rollKeyPage(request.chrome("keys"), await keyOf(request, String(req.params.keyId))));
  });

  app.post("/keys/:keyId/roll", async (req, res) => {
    const request = memberOf(res);
    const grace = Number(
      choiceOf(
        req.body as FormBody,
        "grace_seconds",
        GRACE_CHOICES.map((choice) => choice.value),
      ),
    );
    const rolled = await rollKey(
      request.dashboard.services.persistence.apiKeys,
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
  });
}
