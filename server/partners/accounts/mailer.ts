/**
 * What the dashboard would e-mail: sign-up confirmations and invitations. This server has no mail
 * transport; in the sandbox each message is written to the server log instead, link included, so
 * a developer on their own machine can follow it. A production deployment writes no links to its
 * logs (they are secrets): invitations show their link to the owner who made them, and sign-up
 * waits for a real transport (docs/dashboard.md).
 */
export interface DashboardMail {
  to: string;
  subject: string;
  /** The link the message carries, if any. */
  link: string | null;
  text: string;
}

export interface Mailer {
  /** Whether messages reach their recipient (or the developer's log): sign-up needs it. */
  readonly delivers: boolean;
  send(mail: DashboardMail): void;
}

/** The sandbox's mailer: one info line per message, on the server log. */
export function logMailer(log: (fields: Record<string, unknown>, message: string) => void): Mailer {
  return {
    delivers: true,
    send: ({ to, subject, link, text }) =>
      log({ to, subject, link, text }, `dashboard e-mail (sandbox: written here, not sent): ${subject}`),
  };
}

/** Production without a transport: nothing is sent, and nothing secret is logged. */
export const noMailer: Mailer = { delivers: false, send: () => {} };
