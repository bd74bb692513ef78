import fs from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { PROJECT_ROOT } from "../../tools/lib/test-build";

/** Reads a content/*.yaml file as the tests expect it: the page must show what the YAML says. */
function readYaml<T>(name: string): T {
  return load(fs.readFileSync(path.join(PROJECT_ROOT, "content", `${name}.yaml`), "utf8")) as T;
}

type Option = { value: string; label: string };

export const content = {
  hero: readYaml<{ headline: string; ctaLabel: string }>("hero"),
  solutions: readYaml<{ heading: string; ctaLabel: string; offerings: Array<{ name: string; subtitle: string }> }>("solutions"),
  consulting: readYaml<{ heading: string; ctaLabel: string }>("consulting"),
  expo: readYaml<{ heading: string; ctaLabel: string; booth: string }>("expo"),
  meeting: readYaml<{
    heading: string;
    subtitle: string;
    imageAlt: string;
    formTitle: string;
    contactTitle: string;
    productOptions: Option[];
    meetingTimeOptions: Option[];
  }>("meeting"),
  site: readYaml<{ companyName: string; description: string; history: { established: number } }>("site"),
  contact: readYaml<{ phone: string; email: string; booth: string }>("contact"),
};

/** Text with the YAML's folded whitespace collapsed, as the browser renders it. */
export function squish(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
