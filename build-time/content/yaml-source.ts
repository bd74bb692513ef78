/**
 * Reads a content file with the `yaml` package (YAML 1.2: an unquoted date stays text), keeping
 * each field's line (LineCounter) and its value as typed ("04101" where YAML reads 4101).
 */
import {
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type YAMLError,
} from "yaml";
import type { ContentPath } from "./schema-walk";

export type ParsedYaml = {
  ok: true;
  data: unknown;
  /** 1-based line of a field (its name) or of a list item, if present in the file. */
  lineOf(path: ContentPath): number | undefined;
  /** The value as typed, e.g. "04101" where YAML read 4101. */
  rawOf(path: ContentPath): string | undefined;
  /** Unquoted values YAML cut at " #…" (a comment): the comment ("#713") and the part kept. */
  inlineComments: Array<{ path: ContentPath; comment: string; kept: string }>;
};

export type YamlSyntaxError = {
  ok: false;
  /** 1-based, as editors count; absent when the problem is the file as a whole (it is empty). */
  line?: number;
  column?: number;
  message: string;
};

const INDENTED_DIFFERENTLY =
  'this line is indented differently from the lines around it, or a value contains ": ". Line up the field with its neighbours, and put text that contains a colon or starts with @, `, %, " or \' in quotes.';

/** The parser's error codes, told for people who do not write YAML every day. */
const SYNTAX_HINTS: Readonly<Record<string, string>> = {
  TAB_AS_INDENT: "a Tab key was used to indent this line. Indent with spaces only.",
  DUPLICATE_KEY: "this field name appears twice in the same place. Keep only one of them.",
  UNCLOSED_QUOTE: "a quote mark is opened but never closed. Add the closing quote mark.",
  MISSING_CHAR:
    'this line has no "name: value" form. Add the missing colon, or indent the line if it continues the text above.',
  BAD_INDENT:
    "this line is indented less than expected. Often a quote mark or bracket on the line above is not closed.",
  MULTILINE_IMPLICIT_KEY: INDENTED_DIFFERENTLY,
  BLOCK_AS_IMPLICIT_KEY: INDENTED_DIFFERENTLY,
  BAD_SCALAR_START: INDENTED_DIFFERENTLY,
  MULTIPLE_DOCS: 'the file contains "---", which starts a second document. Remove the "---" line.',
  BAD_ALIAS: "text starting with * must be in quotes.",
  EMPTY: "the file is empty. It must contain the fields listed in the guide.",
};
const OTHER_SYNTAX_ERROR =
  'this line does not fit the structure above it. Check its indentation and that it reads "name: value" with a space after the colon.';

function syntaxError(code: string, at?: { line: number; col: number }): YamlSyntaxError {
  const message = `YAML syntax error: ${SYNTAX_HINTS[code] ?? OTHER_SYNTAX_ERROR}`;
  return at ? { ok: false, line: at.line, column: at.col, message } : { ok: false, message };
}

function describeError(error: YAMLError): YamlSyntaxError {
  const code = /^Missing closing .quote/.test(error.message) ? "UNCLOSED_QUOTE" : error.code;
  // A field indented under the line above reads as one key spanning both lines: the line to fix
  // is where that key ends.
  const at = code === "MULTILINE_IMPLICIT_KEY" ? error.linePos?.[1] : error.linePos?.[0];
  return syntaxError(code, at);
}

const pathKey = (path: ContentPath): string => JSON.stringify(path);

/** Parses a content file; a number where `isText(path)` is read as typed ("04101", not 4101). */
export function parseYaml(
  source: string,
  isText: (path: ContentPath) => boolean,
): ParsedYaml | YamlSyntaxError {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, merge: true, uniqueKeys: true });
  const firstError =
    doc.errors.find((error) => error.code === "MULTILINE_IMPLICIT_KEY") ?? doc.errors[0];
  if (firstError) return describeError(firstError);
  if (doc.contents === null) return syntaxError("EMPTY");

  const lines = new Map<string, number>();
  const raws = new Map<string, string>();
  const inlineComments: ParsedYaml["inlineComments"] = [];
  let unresolvedAlias: number | undefined;
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;

  const visit = (node: unknown, path: ContentPath): void => {
    if (isMap(node)) {
      for (const { key, value } of node.items) {
        if (!isScalar(key) || !key.range) continue;
        const child = [...path, String(key.value)];
        lines.set(pathKey(child), lineAt(key.range[0]));
        visit(value, child);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const child = [...path, index];
        if (isNode(item) && item.range) lines.set(pathKey(child), lineAt(item.range[0]));
        visit(item, child);
      });
    } else if (isAlias(node)) {
      if (!node.resolve(doc) && node.range) unresolvedAlias ??= node.range[0];
    } else if (isScalar(node) && node.source !== undefined && node.range) {
      raws.set(pathKey(path), node.source);
      if (typeof node.value === "number" && isText(path)) node.value = node.source;
      const lineEnd = source.indexOf("\n", node.range[1]);
      const rest = source.slice(node.range[1], lineEnd === -1 ? undefined : lineEnd);
      const comment = /^[ \t]+(#.*?)\s*$/.exec(rest)?.[1];
      if (node.type === "PLAIN" && comment !== undefined)
        inlineComments.push({ path, comment, kept: node.source });
    }
  };
  visit(doc.contents, []);
  if (unresolvedAlias !== undefined)
    return syntaxError("BAD_ALIAS", lineCounter.linePos(unresolvedAlias));

  return {
    ok: true,
    data: doc.toJS(),
    inlineComments,
    lineOf: (path) => lines.get(pathKey(path)),
    rawOf: (path) => raws.get(pathKey(path)),
  };
}
