/**
 * The local Database Webhook: after each write, posts public.contact_webhook_payload for every
 * request newly due one by one: new rows the screening passed, and held rows the page confirmed.
 */
import { oneLine } from "../errors";
import type { FunctionCaller } from "./function-process";
import type { DatabaseRunner } from "./local-cron";

export async function startWebhookPump(
  run: DatabaseRunner,
  fn: FunctionCaller,
  log: (line: string) => void,
) {
  // Rows stored or confirmed before this start are not posted: the first sweep picks up any pending.
  const start = await run((db) =>
    db.query<{ id: string; confirmed: string }>(
      `select coalesce((select max(id) from public.contacts), 0)::text as id,
              coalesce((select max(confirmed_at) from public.contact_screening), '-infinity')::text as confirmed`,
    ),
  );
  let highWater = Number(start.rows[0]!.id);
  let confirmedWater = start.rows[0]!.confirmed;
  let pumping = false;
  let again = false;
  let stopped = false;

  async function pump(): Promise<void> {
    do {
      again = false;
      const due = await run((db) =>
        db.query<{ id: string; confirmed: string | null; payload: string | null }>(
          `select c.id::text as id, s.confirmed_at::text as confirmed,
                  case when n.status = 'pending' then public.contact_webhook_payload(c)::text end as payload
             from public.contacts c
             left join public.contact_notifications n on n.contact_id = c.id
             left join public.contact_screening s on s.contact_id = c.id
            where c.id > $1 or s.confirmed_at > $2::timestamptz
            order by c.id`,
          [highWater, confirmedWater],
        ),
      );
      for (const row of due.rows) {
        highWater = Math.max(highWater, Number(row.id));
        if (row.confirmed !== null && row.confirmed > confirmedWater)
          confirmedWater = row.confirmed;
        if (row.payload !== null) fn.post(row.payload, `webhook for request #${row.id}`);
      }
    } while (again && !stopped);
  }

  return {
    /** Looks for newly due requests (calls made while a look runs make one more look). */
    poke() {
      if (stopped) return;
      if (pumping) {
        again = true;
        return;
      }
      pumping = true;
      pump()
        .catch((error: unknown) =>
          log(
            `notify: could not read new requests (${oneLine(error)}); the next sweep retries them`,
          ),
        )
        .finally(() => (pumping = false));
    },
    busy: () => pumping,
    stop: () => void (stopped = true),
  };
}
