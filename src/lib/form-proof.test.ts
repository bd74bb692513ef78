import {
  createFormProof,
  FORM_PROOF_REUSE_MS,
  isFormChallenge,
  newTicket,
  type FormChallenge,
  type FormProofDependencies,
} from "./form-proof";

const challenge = (n: number): FormChallenge => ({
  algorithm: "SHA-256",
  challenge: `challenge-${n}`,
  maxnumber: 50_000,
  salt: `salt-${n}?expires=1900000000&`,
  signature: `signature-${n}`,
});

/** Dependencies the test drives by hand: a clock, deferred solves and a queue of later tasks. */
function harness(overrides: Partial<FormProofDependencies> = {}) {
  let clock = 0;
  let issued = 0;
  let tickets = 0;
  const solving: {
    challenge: FormChallenge;
    resolve: (payload: string) => void;
    reject: (error: Error) => void;
  }[] = [];
  const tasks: { task: () => void; at: number }[] = [];
  const deps: FormProofDependencies = {
    fetchChallenge: jest.fn(async () => challenge((issued += 1))),
    solve: jest.fn(
      (c: FormChallenge) =>
        new Promise<string>((resolve, reject) => solving.push({ challenge: c, resolve, reject })),
    ),
    confirm: jest.fn(async () => undefined),
    now: () => clock,
    newTicket: () => `${(tickets += 1)}`.padStart(32, "0"),
    later: (task, delayMs) => void tasks.push({ task, at: clock + delayMs }),
    log: jest.fn(),
    ...overrides,
  };
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    deps,
    proof: createFormProof(deps),
    /** Solves the oldest open challenge (its payload names the challenge), or fails it. */
    async solveNext(fail = false) {
      await flush();
      const next = solving.shift()!;
      if (fail) next.reject(new Error("worker blocked"));
      else next.resolve(`payload-of-${next.challenge.challenge}`);
      await flush();
    },
    /** Moves the clock and runs the tasks that fall due. */
    async advance(ms: number) {
      clock += ms;
      for (const due of tasks.filter((entry) => entry.at <= clock)) {
        tasks.splice(tasks.indexOf(due), 1);
        due.task();
      }
      await flush();
    },
  };
}

/** A harness whose proof has been started and its first challenge solved. */
async function solved(overrides: Partial<FormProofDependencies> = {}) {
  const test = harness(overrides);
  test.proof.start();
  await test.solveNext();
  return test;
}

describe("the header of each insert", () => {
  it("never waits: pending with a ticket (at once, before any focus) until a proof is solved, then the payload", async () => {
    const { proof, deps, solveNext } = harness();
    const pending = proof.header();
    expect(pending).toBe(`pending:${"1".padStart(32, "0")}`);
    expect(deps.fetchChallenge).not.toHaveBeenCalled();
    proof.start();
    expect(proof.header()).toBe(pending); // the same until it is sent
    await solveNext();
    expect(proof.header()).toBe("payload-of-challenge-1");
  });

  it("uses a proof once: after a submission the next header is a new ticket, and the next start fetches a fresh challenge", async () => {
    const { proof, deps, solveNext } = await solved();
    const header = proof.header();
    proof.sent(header, true);
    expect(proof.header()).toBe(`pending:${"2".padStart(32, "0")}`);
    // None is asked for until the visitor is back in the form: each challenge of an address costs more.
    expect(deps.fetchChallenge).toHaveBeenCalledTimes(1);
    proof.start();
    proof.start(); // every focus calls it: one challenge per round
    await solveNext();
    expect(proof.header()).toBe("payload-of-challenge-2");
    expect(deps.fetchChallenge).toHaveBeenCalledTimes(2);
    expect(deps.confirm).not.toHaveBeenCalled(); // a verified request needs no confirmation
  });

  it("is kept after a failed insert (nothing was spent): the retry sends the same proof or ticket, no new work starts, and no ticket is confirmed", async () => {
    const { proof, deps } = await solved();
    proof.sent(proof.header(), false);
    expect(proof.header()).toBe("payload-of-challenge-1");
    expect(deps.fetchChallenge).toHaveBeenCalledTimes(1);
    const pending = harness();
    pending.proof.start();
    const ticket = pending.proof.header();
    pending.proof.sent(ticket, false);
    expect(pending.proof.header()).toBe(ticket);
    await pending.solveNext();
    await pending.advance(0);
    expect(pending.deps.confirm).not.toHaveBeenCalled();
  });

  it("goes pending when the solved proof got old, and a fresh challenge replaces it before that", async () => {
    const { proof, deps, solveNext, advance } = await solved();
    await advance(FORM_PROOF_REUSE_MS - 1);
    expect(proof.header()).toBe("payload-of-challenge-1");
    await advance(1);
    expect(deps.fetchChallenge).toHaveBeenCalledTimes(2);
    expect(proof.header()).toMatch(/^pending:/);
    await solveNext();
    expect(proof.header()).toBe("payload-of-challenge-2");
  });

  it("does not use an old proof even when the refresh was late (a background tab's timers)", async () => {
    const { proof, advance } = await solved({ later: () => undefined });
    await advance(FORM_PROOF_REUSE_MS);
    expect(proof.header()).toMatch(/^pending:/);
  });
});

describe("a pending ticket", () => {
  it("stays pending when the worker fails; the failure is logged, and after a stored insert the ticket is confirmed with one new proof, once solved, after the submit's turn", async () => {
    const { proof, deps, solveNext, advance } = harness();
    proof.start();
    await solveNext(true);
    expect(deps.log).toHaveBeenCalledWith(
      expect.stringContaining("pending"),
      expect.objectContaining({ message: "worker blocked" }),
    );
    const header = proof.header();
    expect(header).toMatch(/^pending:/);
    proof.sent(header, true);
    await advance(0);
    expect(deps.confirm).not.toHaveBeenCalled(); // not before the proof is solved
    await solveNext(); // the retry for the pending ticket
    expect(deps.confirm).not.toHaveBeenCalled(); // deferred: never in the submit's own turn
    await advance(0);
    expect(deps.confirm).toHaveBeenCalledTimes(1);
    expect(deps.confirm).toHaveBeenCalledWith(header.slice(8), "payload-of-challenge-2");
  });

  it("uses the round's proof still being solved; a failed confirmation only logs", async () => {
    const { proof, deps, solveNext, advance } = harness({
      confirm: jest.fn(async () => Promise.reject(new Error("HTTP 503"))),
    });
    proof.start();
    proof.sent(proof.header(), true);
    await solveNext(); // the round's own proof, solved after the insert
    await advance(0);
    await advance(0);
    expect(deps.fetchChallenge).toHaveBeenCalledTimes(1);
    expect(deps.log).toHaveBeenCalledWith(
      "Page proof not confirmed.",
      expect.objectContaining({ message: "HTTP 503" }),
    );
  });

  it("is confirmed with a fresh proof when the round's proof got too old", async () => {
    const { proof, deps, solveNext, advance } = await solved({
      later: (task, delay) => (delay === 0 ? task() : undefined),
    });
    await advance(FORM_PROOF_REUSE_MS + 1);
    const header = proof.header();
    expect(header).toMatch(/^pending:/);
    proof.sent(header, true);
    await solveNext(); // fresh proof for the pending ticket
    await advance(0);
    expect(deps.confirm).toHaveBeenCalledWith(header.slice(8), "payload-of-challenge-2");
  });
});

describe("ticket and challenge formats", () => {
  it("tickets are 32 lowercase hex characters, different each time", () => {
    const tickets = new Set(Array.from({ length: 50 }, newTicket));
    expect(tickets.size).toBe(50);
    for (const ticket of tickets) expect(ticket).toMatch(/^[0-9a-f]{32}$/);
  });

  it("only a SHA-256 challenge with a whole maxnumber is accepted from the database", () => {
    expect(isFormChallenge(challenge(1))).toBe(true);
    const refused = [
      { ...challenge(1), algorithm: "SHA-1" },
      { ...challenge(1), maxnumber: 1.5 },
      { ...challenge(1), salt: undefined },
      null,
      { message: "permission denied" },
    ];
    expect(refused.filter(isFormChallenge)).toEqual([]);
  });
});
