/**
 * The start-up banner's lines on the demo partner: its sign-in, its key with a call to try, and,
 * where the banner leaves out something a sandbox's banner normally shows, one line saying why, so
 * nobody is left wondering where the key or the sign-in went.
 */
import type { DemoPartnerAccess, DemoSignIn } from "./demo-partner.js";
import { DEMO_KEY_NAME } from "./demo-partner.js";

/** Instead of everything about the demo partner, in a sandbox that makes none. */
export const noDemoLine = (reason: string) => `No demo partner, so no demo key, sign-in or login_url: ${reason}`;

/** Under the dashboard's address: how to sign in as the demo partner, or why no password is shown. */
export function demoSignInLine(signIn: DemoSignIn): string {
  if (signIn.password !== null)
    return `  sign in as ${signIn.email} with the password ${signIn.password} (the same at every start on this data)`;
  if (signIn.reason === "changed")
    return `  sign in as ${signIn.email} with the password set in the dashboard (it was changed there, so it is not shown here)`;
  return `  no demo sign-in: ${signIn.email} belongs to a member of another account in this data`;
}

/** In place of the dashboard's address and the demo sign-in, when this process serves no dashboard. */
export const noDashboardLine = (demo: boolean) =>
  `Partner dashboard and developer portal: not served by this process (DASHBOARD_PORT=0)${demo ? ", so no demo sign-in is shown" : ""}`;

/** The demo key, and a call with it to try. */
export function demoKeySections({ apiKey, keyReplaced }: Pick<DemoPartnerAccess, "apiKey" | "keyReplaced">, baseUrl: string): string[][] {
  const about = keyReplaced
    ? `a new one: the key shown before was revoked or rolled in the dashboard; listed there as “${DEMO_KEY_NAME}”`
    : `the same at every start on this data; listed in the dashboard as “${DEMO_KEY_NAME}”`;
  return [
    [`API key of the demo partner (${about}):`, `  ${apiKey}`],
    [
      "Try it:",
      `  curl -s -X POST ${baseUrl}/api/v1/users -H 'Authorization: Bearer ${apiKey}' -H 'Content-Type: application/json' -d '{"user_identifier":"user_1"}'`,
    ],
  ];
}

/** In place of the demo user's login_url and page, when this process serves no embedded interface. */
export const noEmbeddedInterfaceLine = "No login_url of a demo user: this process serves no embedded interface (EMBED_PORT=0)";

/** In place of the demo user's login_url and page, when opening its session failed. */
export const noDemoSessionLine = "No login_url of a demo user: its session could not be opened (the log says why)";
