type EarlySubmit = typeof import("./early-submit");

/** A fresh copy of the module: its state is the page's, shared by the start-up script and the form. */
function freshModule(): EarlySubmit {
  let loaded: EarlySubmit | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<EarlySubmit>("./early-submit");
  });
  return loaded!;
}

function formWithAnswer(name: string, value: string) {
  document.body.innerHTML = `<form><input name="${name}" value="${value}"><button type="submit">Send</button></form>`;
  return document.querySelector("form")!;
}

function submit(form: HTMLFormElement): Event {
  const event = new Event("submit", { bubbles: true, cancelable: true });
  form.dispatchEvent(event);
  return event;
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("catchSubmitsUntilLive / takeEarlySubmit", () => {
  it("prevents the native submit and keeps the answers as they were before `caught` disabled the controls", () => {
    const early = freshModule();
    expect(early.submitsAreCaught()).toBe(false);
    const form = formWithAnswer("fullName", "Robin Early");
    const caught = jest.fn((target: HTMLFormElement) => {
      for (const control of target.querySelectorAll("input")) control.disabled = true;
    });
    early.catchSubmitsUntilLive(form, caught);

    expect(early.submitsAreCaught()).toBe(true);
    expect(early.earlySubmitPending()).toBe(false);
    expect(submit(form).defaultPrevented).toBe(true);
    expect(caught).toHaveBeenCalledWith(form);
    expect(early.earlySubmitPending()).toBe(true);
    expect(early.takeEarlySubmit()?.answers.get("fullName")).toBe("Robin Early");
  });

  it("keeps only the first submit, and hands it over once", () => {
    const early = freshModule();
    const form = formWithAnswer("email", "first@example.org");
    const caught = jest.fn();
    early.catchSubmitsUntilLive(form, caught);
    submit(form);
    form.querySelector("input")!.value = "second@example.org";
    expect(submit(form).defaultPrevented).toBe(true);
    expect(caught).toHaveBeenCalledTimes(1);
    expect(early.takeEarlySubmit()?.answers.get("email")).toBe("first@example.org");
    expect(early.takeEarlySubmit()).toBeUndefined();
    expect(early.earlySubmitPending()).toBe(false);
  });

  it("stands down once the form is live: its own handler gets the submit", () => {
    const early = freshModule();
    const form = formWithAnswer("fullName", "Live");
    const caught = jest.fn();
    early.catchSubmitsUntilLive(form, caught);
    expect(early.takeEarlySubmit()).toBeUndefined();
    const event = submit(form);
    expect(event.defaultPrevented).toBe(false);
    expect(caught).not.toHaveBeenCalled();
    expect(early.earlySubmitPending()).toBe(false);
  });

  it("sends the caught answers at once, once, and hands the request to the form", async () => {
    const early = freshModule();
    const form = formWithAnswer("fullName", "Robin Sent");
    let finish = () => {};
    const send = jest.fn((answers: FormData) => {
      expect(answers.get("fullName")).toBe("Robin Sent");
      return new Promise<void>((resolve) => (finish = resolve));
    });
    early.catchSubmitsUntilLive(form, jest.fn(), send);
    submit(form);
    submit(form);
    expect(send).toHaveBeenCalledTimes(1);
    const taken = early.takeEarlySubmit();
    expect(taken?.answers.get("fullName")).toBe("Robin Sent");
    let settled = false;
    void taken?.sending?.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finish();
    await taken?.sending;
    expect(settled).toBe(true);
  });

  it("a send that fails before the form is live is no unhandled rejection: the form gets the failure", async () => {
    const early = freshModule();
    const form = formWithAnswer("fullName", "Robin Offline");
    const failure = new Error("offline");
    early.catchSubmitsUntilLive(form, jest.fn(), () => Promise.reject(failure));
    const unhandled = jest.fn();
    process.on("unhandledRejection", unhandled);
    try {
      submit(form);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).not.toHaveBeenCalled();
      await expect(early.takeEarlySubmit()?.sending).rejects.toBe(failure);
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });
});
