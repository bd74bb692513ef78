/** What one attacker thread counts (attacker-worker.ts), and the sum over the threads (solving.ts). */
export interface AttackerTally {
  challengesGot: number;
  challengesRefused: number;
  /** Challenge calls that failed otherwise (no answer, 5xx). */
  challengesFailed: number;
  /** The largest maxnumber of a challenge given. */
  maxnumber: number;
  hashes: number;
  /** Time spent hashing, in ms. */
  solvingMs: number;
  insertsWithProof: number;
  insertsPending: number;
  /** HTTP status → inserts (0: no answer). */
  inserts: Record<number, number>;
  /** Date.now() of the last insert answered 201 (0: none). */
  lastStoredAt: number;
  /** Date.now() of the last insert sent. */
  lastSentAt: number;
}

export function emptyTally(): AttackerTally {
  return {
    challengesGot: 0,
    challengesRefused: 0,
    challengesFailed: 0,
    maxnumber: 0,
    hashes: 0,
    solvingMs: 0,
    insertsWithProof: 0,
    insertsPending: 0,
    inserts: {},
    lastStoredAt: 0,
    lastSentAt: 0,
  };
}

export function addTallies(total: AttackerTally, part: AttackerTally): AttackerTally {
  const inserts = { ...total.inserts };
  for (const [status, n] of Object.entries(part.inserts))
    inserts[Number(status)] = (inserts[Number(status)] ?? 0) + n;
  return {
    challengesGot: total.challengesGot + part.challengesGot,
    challengesRefused: total.challengesRefused + part.challengesRefused,
    challengesFailed: total.challengesFailed + part.challengesFailed,
    maxnumber: Math.max(total.maxnumber, part.maxnumber),
    hashes: total.hashes + part.hashes,
    solvingMs: total.solvingMs + part.solvingMs,
    insertsWithProof: total.insertsWithProof + part.insertsWithProof,
    insertsPending: total.insertsPending + part.insertsPending,
    inserts,
    lastStoredAt: Math.max(total.lastStoredAt, part.lastStoredAt),
    lastSentAt: Math.max(total.lastSentAt, part.lastSentAt),
  };
}
