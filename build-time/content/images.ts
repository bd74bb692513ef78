/**
 * Checks that a picture named in content exists where the page will look for it.
 */
import fs from "node:fs";
import path from "node:path";
import { IMAGE_EXTENSIONS, show } from "./fields";
import { closestMatch } from "./suggest";
import { safeReadDir } from "./safe-fs";

export interface ImageSize {
  width: number;
  height: number;
}

export type ImageLookup = { found: true; absolutePath: string } | { found: false; message: string };

/**
 * Resolves `relativePath` from the YAML file's folder. The path must stay inside the content
 * folder (the only folder Gatsby reads) and match the file name exactly, capitals included:
 * the computers that build the live site tell capitals apart even when a laptop does not.
 */
export function findImage(relativePath: string, yamlDir: string, contentDir: string): ImageLookup {
  const absolute = path.resolve(yamlDir, relativePath);
  const fromRoot = path.relative(contentDir, absolute);
  if (fromRoot.startsWith("..") || path.isAbsolute(fromRoot)) {
    return {
      found: false,
      message: `${show(relativePath)} points outside the content folder. Keep pictures in content/images.`,
    };
  }
  let dir = contentDir;
  const parts = fromRoot.split(path.sep);
  for (const [index, part] of parts.entries()) {
    const names = safeReadDir(dir);
    if (!names.includes(part)) {
      const sameLetters = names.find((name) => name.toLowerCase() === part.toLowerCase());
      if (sameLetters) {
        return {
          found: false,
          message: `${show(relativePath)} does not match the capitals of the file name "${sameLetters}". Write it exactly as the file is named.`,
        };
      }
      const isLast = index === parts.length - 1;
      return {
        found: false,
        message: isLast
          ? missingPicture(relativePath, part, names)
          : `${show(relativePath)} does not exist: there is no folder "${part}".`,
      };
    }
    dir = path.join(dir, part);
  }
  if (!fs.statSync(dir).isFile())
    return { found: false, message: `${show(relativePath)} is a folder, not a picture.` };
  return { found: true, absolutePath: dir };
}

function missingPicture(
  relativePath: string,
  fileName: string,
  siblings: readonly string[],
): string {
  const pictures = siblings
    .filter((name) => IMAGE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(`.${ext}`)))
    .sort();
  const guess = closestMatch(fileName, pictures);
  const suggestion = guess
    ? ` Did you mean "${relativePath.slice(0, relativePath.length - fileName.length)}${guess}"?`
    : "";
  const available =
    pictures.length > 0
      ? ` Pictures in that folder: ${pictures.join(", ")}.`
      : " That folder has no pictures.";
  return `${show(relativePath)} does not exist.${suggestion}${available}`;
}

/** Width and height from a PNG or JPEG header; `undefined` for other formats or unreadable files. */
export function readImageSize(file: string): ImageSize | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString("ascii", 12, 16) === "IHDR"
  ) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return readJpegSize(bytes);
  return undefined;
}

function readJpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    const length = bytes.readUInt16BE(offset + 2);
    const isStartOfFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame)
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return undefined;
}
