/**
 * The header colour styles an offering card can use (`headerStyle` in content/solutions.yaml).
 * The card's CSS module defines one class per name; content validation accepts only these.
 */
export const OFFERING_HEADER_STYLES = ["ocean", "teal", "violet", "amber", "slate"] as const;

export type OfferingHeaderStyle = (typeof OFFERING_HEADER_STYLES)[number];

export function isOfferingHeaderStyle(value: string): value is OfferingHeaderStyle {
  return (OFFERING_HEADER_STYLES as readonly string[]).includes(value);
}
