/**
 * Reads a YAML file the way Gatsby will, and remembers where each field sits so that
 * every problem can name its line.
 */
import {
  CORE_SCHEMA,
  EVENT_ID,
  SCALAR_STYLE,
  YAMLException,
  getScalarValue,
  load,
  mergeTag,
  parseEvents,
  timestampTag,
  type Event,
} from "js-yaml";
import type { ContentPath } from "./problems";

/**
 * gatsby-transformer-yaml reads files with js-yaml 4's default schema, which also turns
 * unquoted dates into Date objects and understands `<<` merge keys. Reading with the same
 * tags means the check sees exactly the values the page will get.
 */
const GATSBY_LIKE_SCHEMA = CORE_SCHEMA.withTags(timestampTag, mergeTag);

export interface InlineComment {
  path: ContentPath;
  line: number;
  /** The comment text including "#", e.g. "#713". */
  comment: string;
  /** The value YAML kept, without the comment. */
  kept: string;
}

export interface ParsedYaml {
  ok: true;
  data: unknown;
  /** 1-based line of a field (its name) or of a list item (its dash), if present in the file. */
  lineOf(path: ContentPath): number | undefined;
  /** The value exactly as typed in the file (for single-line values), e.g. "04101" where YAML read 4101. */
  rawOf(path: ContentPath): string | undefined;
  /** Unquoted values followed by " #…" on the same line: YAML drops that part as a comment. */
  inlineComments: InlineComment[];
}

export interface YamlSyntaxError {
  ok: false;
  /** 1-based, as editors count. Absent when the problem is the file as a whole (e.g. it is empty). */
  line?: number;
  column?: number;
  /** Plain-language explanation with a hint. */
  message: string;
}

export function parseYaml(source: string, fileName: string): ParsedYaml | YamlSyntaxError {
  let data: unknown;
  try {
    data = load(source, { schema: GATSBY_LIKE_SCHEMA, filename: fileName });
  } catch (error) {
    if (error instanceof YAMLException) return describeSyntaxError(error);
    throw error;
  }
  const index = indexSource(source);
  return { ok: true, data, ...index };
}

/** Parser messages rewritten for people who do not write YAML every day. */
const SYNTAX_HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /tab characters must not be used/,
    "a Tab key was used to indent this line. Indent with spaces only.",
  ],
  [
    /duplicated mapping key/,
    "this field name appears twice in the same place. Keep only one of them.",
  ],
  [
    /unexpected end of the stream within a (double|single) quoted scalar/,
    "a quote mark is opened but never closed. Add the closing quote mark.",
  ],
  [
    /deficient indentation/,
    "this line is indented less than expected. Often a quote mark or bracket on the line above is not closed.",
  ],
  [
    /bad indentation of a mapping entry/,
    'this line is indented differently from the lines around it, or a value contains ": ". Line up the field with its neighbours, and put text that contains a colon or starts with @, `, %, " or \' in quotes.',
  ],
  [
    /bad indentation of a sequence entry/,
    'this list item is indented differently from the items around it. Line up each "- " with the others.',
  ],
  [
    /end of the stream or a document separator is expected/,
    'this line does not fit the structure above it. Check its indentation and that it reads "name: value" with a space after the colon.',
  ],
  [
    /can not read a block mapping entry|a multiline key may not be an implicit key/,
    'this line has no "name: value" form. Add the missing colon, or indent the line if it continues the text above.',
  ],
  [/unidentified alias/, "text starting with * must be in quotes."],
  [
    /expected a document, but the input is empty/,
    "the file is empty. It must contain the fields listed in the guide.",
  ],
  [
    /expected a single document in the stream/,
    'the file contains "---", which starts a second document. Remove the "---" line.',
  ],
];

function describeSyntaxError(error: YAMLException): YamlSyntaxError {
  const hint = SYNTAX_HINTS.find(([pattern]) => pattern.test(error.reason))?.[1];
  const message = hint ? `YAML syntax error: ${hint}` : `YAML syntax error: ${error.reason}.`;
  if (!error.mark) return { ok: false, message };
  return { ok: false, line: error.mark.line + 1, column: error.mark.column + 1, message };
}

type Container =
  | { kind: "document"; path: ContentPath; done: boolean }
  | { kind: "mapping"; path: ContentPath; key: string | undefined; expectingKey: boolean }
  | { kind: "sequence"; path: ContentPath; next: number };

/** Events that stand for a value: a sequence, a mapping, a scalar or an alias. */
type NodeEvent = Extract<
  Event,
  { type: (typeof EVENT_ID)["SEQUENCE" | "MAPPING" | "SCALAR" | "ALIAS"] }
>;

function pathKey(path: ContentPath): string {
  return JSON.stringify(path);
}

/** Walks the parser's event stream once, recording the line of every field and list item. */
function indexSource(source: string) {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };

  const lines = new Map<string, number>();
  const raws = new Map<string, string>();
  const inlineComments: InlineComment[] = [];
  const stack: Container[] = [];

  const startOf = (event: NodeEvent): number => {
    if (event.type === EVENT_ID.SCALAR) return event.valueStart;
    if (event.type === EVENT_ID.ALIAS) return event.anchorStart;
    return event.start;
  };

  /** Path of a value node about to be read; `undefined` when the node is a mapping key. */
  const placeNode = (event: NodeEvent): ContentPath | undefined => {
    const top = stack[stack.length - 1];
    if (!top) return [];
    if (top.kind === "document") {
      top.done = true;
      return top.path;
    }
    if (top.kind === "sequence") {
      const path = [...top.path, top.next];
      top.next += 1;
      lines.set(pathKey(path), lineAt(startOf(event)));
      return path;
    }
    if (top.expectingKey) {
      top.expectingKey = false;
      top.key = event.type === EVENT_ID.SCALAR ? getScalarValue(source, event) : undefined;
      if (top.key !== undefined) lines.set(pathKey([...top.path, top.key]), lineAt(startOf(event)));
      return undefined;
    }
    top.expectingKey = true;
    return top.key === undefined ? undefined : [...top.path, top.key];
  };

  for (const event of parseEvents(source, {})) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        stack.push({ kind: "document", path: [], done: false });
        break;
      case EVENT_ID.POP:
        stack.pop();
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        const path = placeNode(event) ?? ["(complex key)"];
        if (path.length === 0) lines.set(pathKey(path), lineAt(event.start));
        stack.push(
          event.type === EVENT_ID.MAPPING
            ? { kind: "mapping", path, key: undefined, expectingKey: true }
            : { kind: "sequence", path, next: 0 },
        );
        break;
      }
      case EVENT_ID.SCALAR: {
        const path = placeNode(event);
        const raw = source.slice(event.valueStart, event.valueEnd);
        if (path && !raw.includes("\n")) raws.set(pathKey(path), raw);
        if (path && event.style === SCALAR_STYLE.PLAIN) {
          const lineEnd = source.indexOf("\n", event.valueEnd);
          const rest = source.slice(event.valueEnd, lineEnd === -1 ? source.length : lineEnd);
          const comment = /^[ \t]+(#.*?)\s*$/.exec(rest)?.[1];
          if (comment !== undefined) {
            inlineComments.push({
              path,
              line: lineAt(event.valueEnd),
              comment,
              kept: getScalarValue(source, event),
            });
          }
        }
        break;
      }
      case EVENT_ID.ALIAS:
        placeNode(event);
        break;
    }
  }

  return {
    inlineComments,
    lineOf: (path: ContentPath): number | undefined => lines.get(pathKey(path)),
    rawOf: (path: ContentPath): string | undefined => raws.get(pathKey(path)),
  };
}
