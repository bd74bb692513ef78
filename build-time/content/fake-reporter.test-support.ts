import type { ContentReporter } from "./pipeline";

/** For tests: a reporter that records each call as [method, text]. */
export function fakeReporter(): { reporter: ContentReporter; calls: Array<[string, string]> } {
  const calls: Array<[string, string]> = [];
  const reporter: ContentReporter = {
    info: (text) => {
      calls.push(["info", String(text)]);
      return { type: "LOG_ACTION" } as unknown as ReturnType<ContentReporter["info"]>;
    },
    warn: (text) => {
      calls.push(["warn", String(text)]);
      return { type: "LOG_ACTION" } as unknown as ReturnType<ContentReporter["warn"]>;
    },
    panicOnBuild: (meta) => {
      calls.push(["panicOnBuild", String(meta)]);
      return [];
    },
  };
  return { reporter, calls };
}
