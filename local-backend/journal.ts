/**
 * The request journal, `requests.jsonl` in the data folder: one JSON line per stored request,
 * fsynced before the 201. Outside PGlite's files, it survives a damaged database: the two are
 * compared at every start (data-folder.ts), and `npm run requests -- --restore` rebuilds from it.
 */
import fs from "node:fs";
import path from "node:path";

import type { StoredRequest } from "./database";

export const JOURNAL_NAME = "requests.jsonl";

export const journalFile = (dataDir: string): string => path.join(dataDir, JOURNAL_NAME);

/** The journal's requests by id. A torn last line (a crash while writing it) was never acknowledged: skipped. */
export function readJournal(dataDir: string): Map<number, StoredRequest> {
  let text = "";
  try {
    text = fs.readFileSync(journalFile(dataDir), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const requests = new Map<number, StoredRequest>();
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line === "") return;
    try {
      const request = JSON.parse(line) as StoredRequest;
      requests.set(request.id, request);
    } catch (error) {
      if (index < lines.length - 1)
        throw new Error(`${journalFile(dataDir)} line ${index + 1} is not valid JSON`, {
          cause: error,
        });
    }
  });
  return requests;
}

/** What the journal keeps of a request: the row as stored, without its notification state (which changes later). */
export function journalEntry(request: StoredRequest): StoredRequest {
  const { id, created_at, name, email, organization, message } = request;
  return { id, created_at, name, email, organization, message };
}

export type Journal = ReturnType<typeof openJournal>;

export function openJournal(dataDir: string) {
  const file = journalFile(dataDir);
  const fd = fs.openSync(file, "a+", 0o600);
  // Cut a torn last line so the next append starts on a line of its own.
  const text = fs.readFileSync(file, "utf8");
  const end = text.lastIndexOf("\n") + 1;
  if (end !== text.length) fs.ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
  let closed = false;
  return {
    /** Appends the requests and waits until they are on disk. */
    append(requests: readonly StoredRequest[]) {
      if (requests.length === 0) return;
      fs.writeSync(
        fd,
        requests.map((request) => `${JSON.stringify(journalEntry(request))}\n`).join(""),
      );
      fs.fsyncSync(fd);
    },
    close() {
      if (!closed) fs.closeSync(fd);
      closed = true;
    },
  };
}
