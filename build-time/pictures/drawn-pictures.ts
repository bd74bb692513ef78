/**
 * The pictures drawn from the content (src/lib/pictures): where they are written, and which
 * content field each one stands in for when the editor has not chosen a picture of their own.
 */
import path from "node:path";

/** Written by every build and develop start, read by gatsby-source-filesystem (gatsby-config.ts). Not committed. */
export const DRAWN_PICTURES_DIR = path.join(process.cwd(), ".drawn-pictures");

/**
 * Each picture's file in DRAWN_PICTURES_DIR (its SVG source is written beside it), and the content
 * file and field that name an editor's own picture instead.
 */
export const DRAWN_PICTURES = {
  shareCard: { fileName: "share-card.png", contentFile: "site", field: "shareImage" },
  meetingIllustration: {
    fileName: "meeting-illustration.png",
    contentFile: "meeting",
    field: "image",
  },
} as const;

/** A content file's JSON with the drawn picture's path (from the content folder) in an empty field. */
export function withDrawnPictures(contentFile: string, json: string, contentDir: string): string {
  const name = path.basename(contentFile, path.extname(contentFile));
  const pictures = Object.values(DRAWN_PICTURES).filter((picture) => picture.contentFile === name);
  if (pictures.length === 0) return json;
  const data = JSON.parse(json) as Record<string, unknown>;
  for (const picture of pictures) {
    const chosen = data[picture.field];
    if (typeof chosen === "string" && chosen.trim() !== "") continue;
    data[picture.field] = path
      .relative(contentDir, path.join(DRAWN_PICTURES_DIR, picture.fileName))
      .split(path.sep)
      .join("/");
  }
  return JSON.stringify(data);
}
