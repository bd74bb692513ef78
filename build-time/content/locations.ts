/**
 * Names the place of a problem the way an editor thinks of it:
 * ["offerings", 1, "headerStyle"] → offering "OptiRun" › headerStyle.
 */
import { show } from "./fields";
import type { ContentPath } from "./problems";
import { isRecord } from "./schema-walk";

/** What one item of each list is called. */
const ITEM_NOUNS: Readonly<Record<string, string>> = {
  offerings: "offering",
  stats: "stat",
  figures: "figure",
  perks: "perk",
  leaders: "leader",
  productOptions: "product option",
  meetingTimeOptions: "meeting time option",
  resources: "resource link",
  legalLinks: "legal link",
};

/** Fields that name an item, in order of preference. */
const NAMING_FIELDS = ["name", "title", "role", "label", "value"] as const;

function itemLabel(listKey: string, index: number, item: unknown): string {
  const noun = ITEM_NOUNS[listKey];
  if (noun && isRecord(item)) {
    for (const field of NAMING_FIELDS) {
      const value = item[field];
      if (typeof value === "string" && value.trim() !== "") return `${noun} ${show(value)}`;
    }
  }
  return `${listKey} item ${index + 1}`;
}

export function describeLocation(data: unknown, path: ContentPath): string[] {
  const segments: string[] = [];
  let current: unknown = data;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const next = path[i + 1];
    if (typeof segment === "string" && typeof next === "number") {
      const list = isRecord(current) ? current[segment] : undefined;
      const item = Array.isArray(list) ? list[next] : undefined;
      segments.push(itemLabel(segment, next, item));
      current = item;
      i++;
    } else if (typeof segment === "string") {
      segments.push(segment);
      current = isRecord(current) ? current[segment] : undefined;
    } else {
      segments.push(`item ${Number(segment) + 1}`);
      current = Array.isArray(current) ? current[Number(segment)] : undefined;
    }
  }
  return segments;
}
