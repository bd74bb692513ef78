/**
 * Staff e-mail in a test: the backend restarted with notifications delivered to its own mail
 * catcher (the real Edge Function under Deno sends them; nothing leaves the machine), and the
 * caught e-mails read back as a mail program shows them.
 */
import type { LocalBackend, LocalBackendOptions } from "../../local-backend";
import { expect, type Backend } from "./fixtures";

type MailCatcher = NonNullable<NonNullable<LocalBackend["notifier"]>["catcher"]>;
export type CaughtMail = MailCatcher["messages"][number];

/** The backend again, for the current test, with fast notification sweeps into a mail catcher. */
export async function startWithMailCatcher(
  backend: Backend,
  screening?: LocalBackendOptions["screening"],
): Promise<{ running: LocalBackend; catcher: MailCatcher }> {
  const running = await backend.restartWith({
    notifications: { catcher: { port: 0 }, sweepIntervalMs: 1_000, digestIntervalMs: 250 },
    screening,
  });
  return { running, catcher: running.notifier!.catcher! };
}

/** The first caught e-mail whose text holds `text`, waited for. */
export async function mailContaining(
  catcher: MailCatcher,
  text: string,
  timeout = 30_000,
): Promise<CaughtMail> {
  const find = () => catcher.messages.find((mail) => mail.body.includes(text));
  await expect
    .poll(() => find() !== undefined, { timeout, message: `an e-mail with ${text}` })
    .toBe(true);
  return find()!;
}
