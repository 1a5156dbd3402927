/** Webhooks: endpoints made, edited, disabled, deleted; the secret shown once and rotated; deliveries read, redelivered, tested. */
import type { Request, Response } from "express";
import { subscribableWebhookEvents } from "../../../generated/operations.js";
import { ApiError } from "../../platform/errors.js";
import { inTransaction } from "../../application/transactions.js";
import { endpointOfPartner } from "../../domain/webhooks/endpoint-access.js";
import * as endpoints from "../../domain/webhooks/endpoints.js";
import { endpointView } from "../../domain/webhooks/endpoints.js";
import type { SubscribableEventType } from "../../domain/webhooks/webhook-store.js";
import { choiceOf, integerOf, listOf, textOf, type FormBody } from "../../web/form-fields.js";
import { memberOf, type MemberRequest } from "./dashboard-context.js";
import { formErrors, type FormErrors } from "../views/controls.js";
import {
  DELIVERIES_PER_PAGE,
  deleteEndpointPage,
  editEndpointPage,
  endpointPage,
  endpointsPage,
  newEndpointPage,
  PREVIOUS_SECRET_CHOICES,
  rotateSecretPage,
  takesDefaultEvents,
  type EndpointFormValues,
} from "../views/webhooks-view.js";
import type { RouteTable } from "../../web/route-table.js";

const MESSAGES: Record<string, string> = {
  deleted: "The endpoint is deleted.",
  updated: "The endpoint is saved.",
  enabled: "The endpoint is enabled: pending deliveries go out now.",
  disabled: "The endpoint is disabled: events are kept for it but not sent.",
  test: "A test event is on its way; its delivery shows below.",
  redelivered: "The event is sent again as a new delivery.",
};

const messageOf = (req: Request) => (typeof req.query.done === "string" ? (MESSAGES[req.query.done] ?? null) : null);
const idOf = (req: Request, name: string) => String(req.params[name]);

/** The form's values as typed, and what is wrong with them before the services see them. */
function readEndpointForm(body: FormBody): { values: EndpointFormValues; problems: Record<string, string> } {
  const url = textOf(body, "url");
  const description = textOf(body, "description");
  const events = listOf(body, "events");
  const problems: Record<string, string> = {};
  if (!/^https?:\/\//.test(url) || url.length < 8 || url.length > 2048 || !URL.canParse(url))
    problems.url = "Enter a URL such as https://example.com/webhooks.";
  if (description.length > 255) problems.description = "Use at most 255 characters.";
  if (events.some((type) => !(subscribableWebhookEvents as readonly string[]).includes(type)))
    problems.events = "Choose events from the list.";
  return { values: { url, description, events: new Set(events) }, problems };
}

/** The services' refusal of a field, shown beside it. */
function refusalOf(error: unknown): FormErrors | null {
  if (!(error instanceof ApiError) || error.status >= 500 || error.status === 404) return null;
  const field = error.details?.field;
  return typeof field === "string" ? formErrors({ [field]: error.message }) : formErrors({}, [error.message]);
}

const inPartnerTransaction = <T>(request: MemberRequest, work: (services: MemberRequest["services"]) => Promise<T>) =>
  inTransaction(request.services, (tx) => work(tx));

async function showEndpoint(
  req: Request,
  res: Response,
  id: string,
  options: { secret?: string; status?: number; message?: string | null } = {},
) {
  const request = memberOf(res);
  const offset = integerOf({ offset: typeof req.query.offset === "string" ? req.query.offset : "" }, "offset") ?? 0;
  const endpoint = await endpointOfPartner(request.services, request.partner.id, id);
  const { deliveries, total } = await endpoints.listDeliveries(request.services, request.partner.id, id, {
    limit: DELIVERIES_PER_PAGE,
    offset,
  });
  res
    .status(options.status ?? 200)
    .type("html")
    .send(
      endpointPage({
        chrome: request.chrome("webhooks"),
        endpoint: endpointView(endpoint, request.services.clock.now()),
        deliveries,
        total,
        offset,
        secret: options.secret,
        message: options.message ?? messageOf(req),
      }),
    );
}

async function setEnabled(req: Request, res: Response, enabled: boolean) {
  const request = memberOf(res);
  const id = idOf(req, "endpointId");
  await inPartnerTransaction(request, (services) => endpoints.updateEndpoint(services, request.partner.id, id, { enabled }));
  res.redirect(303, `/webhooks/${id}?done=${enabled ? "enable" : "disable"}d`);
}

export async function showEndpoints(req: Request, res: Response) {
  const request = memberOf(res);
  res
    .type("html")
    .send(endpointsPage(request.chrome("webhooks"), await endpoints.listEndpoints(request.services, request.partner.id), messageOf(req)));
}

export function showNewEndpoint(_req: Request, res: Response) {
  res.type("html").send(newEndpointPage(memberOf(res).chrome("webhooks"), { url: "", description: "", events: new Set() }));
}

export async function createEndpoint(req: Request, res: Response) {
  const request = memberOf(res);
  const { values, problems } = readEndpointForm(req.body as FormBody);
  const refuse = (errors: FormErrors) =>
    res
      .status(422)
      .type("html")
      .send(newEndpointPage(request.chrome("webhooks"), values, errors));
  if (Object.keys(problems).length > 0) return refuse(formErrors(problems));
  try {
    const created = await inPartnerTransaction(request, (services) =>
      endpoints.createEndpoint(services, request.partner.id, {
        url: values.url,
        description: values.description || null,
        events: values.events.size > 0 ? ([...values.events] as SubscribableEventType[]) : null,
      }),
    );
    await showEndpoint(req, res, created.id, {
      secret: created.secret,
      status: 201,
      message: "The endpoint is added. Copy its signing secret now.",
    });
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    refuse(refusal);
  }
}

export function showEndpointPage(req: Request, res: Response) {
  return showEndpoint(req, res, idOf(req, "endpointId"));
}

export async function showEndpointEdit(req: Request, res: Response) {
  const request = memberOf(res);
  const endpoint = endpointView(
    await endpointOfPartner(request.services, request.partner.id, idOf(req, "endpointId")),
    request.services.clock.now(),
  );
  const all = takesDefaultEvents(endpoint.events);
  res.type("html").send(
    editEndpointPage(request.chrome("webhooks"), endpoint, {
      url: endpoint.url,
      description: endpoint.description ?? "",
      events: new Set(all ? [] : endpoint.events),
    }),
  );
}

export async function editEndpoint(req: Request, res: Response) {
  const request = memberOf(res);
  const id = idOf(req, "endpointId");
  const endpoint = endpointView(await endpointOfPartner(request.services, request.partner.id, id), request.services.clock.now());
  const { values, problems } = readEndpointForm(req.body as FormBody);
  const refuse = (errors: FormErrors) =>
    res
      .status(422)
      .type("html")
      .send(editEndpointPage(request.chrome("webhooks"), endpoint, values, errors));
  if (Object.keys(problems).length > 0) return refuse(formErrors(problems));
  try {
    await inPartnerTransaction(request, (services) =>
      endpoints.updateEndpoint(services, request.partner.id, id, {
        url: values.url,
        description: values.description,
        events: values.events.size > 0 ? ([...values.events] as SubscribableEventType[]) : [...subscribableWebhookEvents],
      }),
    );
    res.redirect(303, `/webhooks/${id}?done=updated`);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    refuse(refusal);
  }
}

export function enableEndpoint(req: Request, res: Response) {
  return setEnabled(req, res, true);
}

export function disableEndpoint(req: Request, res: Response) {
  return setEnabled(req, res, false);
}

export async function showEndpointDeletion(req: Request, res: Response) {
  const request = memberOf(res);
  const endpoint = await endpointOfPartner(request.services, request.partner.id, idOf(req, "endpointId"));
  res.type("html").send(deleteEndpointPage(request.chrome("webhooks"), endpointView(endpoint, request.services.clock.now())));
}

export async function deleteEndpoint(req: Request, res: Response) {
  const request = memberOf(res);
  await inPartnerTransaction(request, (services) => endpoints.deleteEndpoint(services, request.partner.id, idOf(req, "endpointId")));
  res.redirect(303, "/webhooks?done=deleted");
}

export async function showSecretRotation(req: Request, res: Response) {
  const request = memberOf(res);
  const endpoint = await endpointOfPartner(request.services, request.partner.id, idOf(req, "endpointId"));
  res.type("html").send(rotateSecretPage(request.chrome("webhooks"), endpointView(endpoint, request.services.clock.now())));
}

export async function rotateSecret(req: Request, res: Response) {
  const request = memberOf(res);
  const previousValid = Number(
    choiceOf(
      req.body as FormBody,
      "previous_secret_valid_for",
      PREVIOUS_SECRET_CHOICES.map((choice) => choice.value),
    ),
  );
  const rotated = await inPartnerTransaction(request, (services) =>
    endpoints.rotateSecret(services, request.partner.id, idOf(req, "endpointId"), previousValid),
  );
  await showEndpoint(req, res, rotated.id, { secret: rotated.secret, message: "The secret is rotated. Copy the new one now." });
}

export async function sendTestEvent(req: Request, res: Response) {
  const request = memberOf(res);
  const id = idOf(req, "endpointId");
  await inPartnerTransaction(request, async (services) => {
    await endpoints.sendTestEvent(services, request.partner.id, id);
    services.afterCommit(() => services.webhooks.dispatcher.tick().catch(() => undefined));
  });
  res.redirect(303, `/webhooks/${id}?done=test`);
}

export async function redeliver(req: Request, res: Response) {
  const request = memberOf(res);
  const id = idOf(req, "endpointId");
  await inPartnerTransaction(request, async (services) => {
    await endpoints.redeliver(services, request.partner.id, id, idOf(req, "deliveryId"));
    services.afterCommit(() => services.webhooks.dispatcher.tick().catch(() => undefined));
  });
  res.redirect(303, `/webhooks/${id}?done=redelivered`);
}

export const WEBHOOK_ROUTES: RouteTable = {
  "/webhooks": { get: showEndpoints, post: createEndpoint },
  "/webhooks/new": { get: showNewEndpoint },
  "/webhooks/:endpointId": { get: showEndpointPage },
  "/webhooks/:endpointId/edit": { get: showEndpointEdit, post: editEndpoint },
  "/webhooks/:endpointId/enable": { post: enableEndpoint },
  "/webhooks/:endpointId/disable": { post: disableEndpoint },
  "/webhooks/:endpointId/delete": { get: showEndpointDeletion, post: deleteEndpoint },
  "/webhooks/:endpointId/rotate": { get: showSecretRotation, post: rotateSecret },
  "/webhooks/:endpointId/test": { post: sendTestEvent },
  "/webhooks/:endpointId/deliveries/:deliveryId/redeliver": { post: redeliver },
};
