/**
 * `npm run report [-- --from YYYY-MM-DD --to YYYY-MM-DD] [--json] [--mail] [--data-dir PATH]`: what
 * the page turned into meetings (docs/analytics.md), by default over the last 7 days, as text, as
 * JSON or also as the e-mail staff get (written to the mail catcher's folder). Reads the running
 * local backend, or its data folder when none runs (site-analytics/report-data.ts).
 */
import fs from "node:fs";
import path from "node:path";

import { parseOptions, UsageError } from "../local-backend/cli-args";
import { runCli, withUsage } from "./lib/cli";
import { DEFAULT_FROM, DEFAULT_TO } from "../local-backend/notifications/notifier";
import { localEnvironment, mailDirBeside } from "../local-backend/notifications/settings";
import { localDataDir, projectRoot } from "../local-backend/paths";
import {
  messageBytes,
  parseMailbox,
  type Mailbox,
} from "../supabase/functions/notify-meeting-request/mail.ts";
import { composeReport, reportText } from "../supabase/functions/notify-meeting-request/report.ts";
import {
  dateProblem,
  lastSevenDays,
  loadSiteReport,
  type SiteReport,
} from "./site-analytics/report-data";

const USAGE =
  "Usage: npm run report -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json] [--mail] [--data-dir PATH]";

function mailboxes(text: string): Mailbox[] {
  return text
    .split(",")
    .map((item) => parseMailbox(item))
    .filter((mailbox): mailbox is Mailbox => mailbox !== undefined);
}

/** Writes the report e-mail where the local mail catcher keeps its .eml files; returns the file. */
async function writeMail(report: SiteReport, dataDir: string): Promise<string> {
  const env = localEnvironment();
  const from = parseMailbox(env.NOTIFY_EMAIL_FROM ?? DEFAULT_FROM) ?? parseMailbox(DEFAULT_FROM)!;
  const to = mailboxes(env.NOTIFY_REPORT_TO ?? env.NOTIFY_EMAIL_TO ?? DEFAULT_TO);
  const now = new Date();
  const email = composeReport(
    { kind: "report", period: "range", report },
    { from, to: to.length > 0 ? to : mailboxes(DEFAULT_TO) },
    now,
  );
  const dir = env.LOCAL_MAIL_DIR
    ? path.resolve(projectRoot(), env.LOCAL_MAIL_DIR)
    : mailDirBeside(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `${now.toISOString().replace(/[:.]/g, "-")}_site-report-${report.from}-${report.to}.eml`,
  );
  fs.writeFileSync(file, await messageBytes(email));
  return file;
}

async function main(): Promise<number> {
  const values = withUsage(USAGE, () =>
    parseOptions(process.argv.slice(2), {
      from: { type: "string" },
      to: { type: "string" },
      json: { type: "boolean" },
      mail: { type: "boolean" },
      "data-dir": { type: "string" },
    }),
  );
  const to = values.to ?? lastSevenDays().to;
  const from = values.from ?? (values.to ? values.to : lastSevenDays().from);
  const problem =
    dateProblem("--from", from) ??
    dateProblem("--to", to) ??
    (from > to ? `--from (${from}) is after --to (${to})` : undefined);
  if (problem) throw new UsageError(`${problem}.\n${USAGE}`);
  const dataDir = path.resolve(values["data-dir"] ?? localDataDir());
  const report = await loadSiteReport(dataDir, from, to);
  if (!report) {
    console.error(`No local database in ${dataDir} yet (start it with \`npm run backend\`).`);
    return 1;
  }
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
  if (values.mail)
    console.error(
      `The report e-mail was written to ${await writeMail(report, dataDir)} (open it with any mail program).`,
    );
  return 0;
}

runCli(main);
