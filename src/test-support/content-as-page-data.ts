/** The real content/ files for the page tests, shaped as the pages' queries return them. */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import IndexPage from "../pages/index";
import { TOAST_LIBRARY_WORDS } from "./toast-library-words";

const contentDir = path.resolve(__dirname, "../../content");

export type ContentFiles = Record<string, Record<string, unknown>>;

export function loadContentFile(name: string): Record<string, unknown> {
  const file = path.join(contentDir, `${name}.yaml`);
  return parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
}

const FILES = ["site", "hero", "solutions", "consulting", "expo", "meeting", "contact", "footer"];

/** Every content/*.yaml file the page reads, by name. */
export function loadContent(): ContentFiles {
  return Object.fromEntries(FILES.map((name) => [name, loadContentFile(name)]));
}

/**
 * The real content/ files (or `content`, an edited copy of them) shaped like the index page's
 * query result, so page tests render what the build would render (images excepted: sharp does
 * not run in tests).
 */
export function indexPageDataFromContent(
  content: ContentFiles = loadContent(),
  buildYear = "2025",
): Queries.IndexPageQuery {
  return {
    site: { buildTime: buildYear, siteMetadata: { siteUrl: "https://expo.example.com" } },
    siteContent: { ...content.site, shareImage: { publicURL: "/static/share-card.png" } },
    heroContent: content.hero,
    solutionsContent: content.solutions,
    consultingContent: content.consulting,
    expoContent: content.expo,
    meetingContent: { ...content.meeting, image: { childImageSharp: null } },
    contactContent: content.contact,
    footerContent: content.footer,
  } as unknown as Queries.IndexPageQuery;
}

/**
 * The landing page as the build writes it: its HTML in the document at `pathname`, no React
 * attached (the browser runs src/boot/page-boot.ts instead).
 */
export function builtPage(pathname = "/"): void {
  const element = createElement(IndexPage, { data: indexPageDataFromContent() } as never);
  document.body.innerHTML = renderToString(element);
  window.history.replaceState(null, "", pathname);
}

/** content/meeting.yaml as the meeting form receives it. */
export function meetingFormContent(
  content: ContentFiles = loadContent(),
): Queries.MeetingFormFragment {
  return content.meeting as unknown as Queries.MeetingFormFragment;
}

/**
 * A copy of the content with every text changed by `replace` (e.g. next year's expo), for tests
 * that prove the page shows what the content says and nothing else.
 */
export function editedContent(
  replace: (text: string) => string,
  content: ContentFiles = loadContent(),
): ContentFiles {
  const edit = (value: unknown): unknown => {
    if (typeof value === "string") return replace(value);
    if (Array.isArray(value)) return value.map(edit);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, edit(item)]));
    return value;
  };
  return edit(content) as ContentFiles;
}

/**
 * The texts under `root` (text nodes and the attributes people read: alt, title, placeholder,
 * aria-label) that contain a lower-case letter, i.e. words that did not come from capitalised
 * content. The honeypot's label is for bots only and is skipped.
 */
export function lowerCaseTexts(root: Element): string[] {
  const texts: string[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('label[for="reference_code"], script')) continue; // data blocks are not read by people
    texts.push(node.textContent ?? "");
  }
  for (const element of root.querySelectorAll("*")) {
    for (const name of ["alt", "title", "placeholder", "aria-label"])
      texts.push(element.getAttribute(name) ?? "");
  }
  return texts.filter((text) => /\p{Ll}/u.test(text) && !TOAST_LIBRARY_WORDS.has(text));
}
