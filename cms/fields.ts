/**
 * One content field (a zod schema) as a CMS form field: help text, required mark, list minimum,
 * choices and pattern all come from the schema, a refusal says the content check's "Expected …".
 * What a pattern cannot say stays with the content check, which runs on every save.
 */
import { z } from "zod";
import { IMAGE_EXTENSIONS, pictureFields, typingHints } from "../build-time/content/fields";
import { fieldHelp } from "../build-time/content/messages";
import { fieldLabel, itemLabel, LONG_TEXT_FIELDS } from "./labels";

/** The subset of Sveltia CMS (and Decap CMS) field options this site uses. */
export type CmsField = {
  name: string;
  label: string;
  widget: "string" | "text" | "number" | "select" | "list" | "object" | "image" | "datetime";
  hint?: string;
  required?: boolean;
  pattern?: [string, string];
  options?: string[];
  value_type?: "int";
  min?: number;
  max?: number;
  field?: CmsField;
  fields?: CmsField[];
  label_singular?: string;
  summary?: string;
  choose_url?: boolean;
  accept?: string;
  media_folder?: string;
  public_folder?: string;
  format?: string;
  time_format?: false;
  picker_utc?: boolean;
};

/** What the JSON Schema of a field says, of what the form needs. */
function jsonSchemaOf(schema: z.ZodType) {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    pattern?: string;
    description?: string;
    minItems?: number;
    minimum?: number;
    maximum?: number;
  };
}

const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

/** What the editor reads under a field that refuses a value: the content check's "Expected …" sentence. */
function refusal(schema: z.ZodType): string {
  const expected = fieldHelp.get(schema)?.expected;
  return expected ? `Expected ${expected}.` : "This value is not accepted.";
}

/** The description without its advice on typing YAML: the CMS writes the YAML. */
function describe(schema: z.ZodType): string | undefined {
  const description = jsonSchemaOf(schema).description;
  const typingHint = typingHints.get(schema)?.sentence;
  return typingHint && description?.endsWith(` ${typingHint}`)
    ? description.slice(0, -typingHint.length - 1)
    : description;
}

export function cmsField(name: string, field: z.ZodType, listName?: string): CmsField {
  // An optional field (an editor's own picture instead of the drawn one) may be left empty.
  const optional = field instanceof z.ZodOptional;
  const schema = optional ? (field.unwrap() as z.ZodType) : field;
  const common = {
    name,
    label: fieldLabel(name, listName),
    hint: describe(schema),
    required: !optional,
  };

  if (schema instanceof z.ZodObject)
    return { ...common, widget: "object", fields: cmsFields(schema) };
  if (schema instanceof z.ZodArray) {
    const element = schema.element as z.ZodType;
    const list = {
      ...common,
      widget: "list" as const,
      label_singular: itemLabel(name),
      min: jsonSchemaOf(schema).minItems,
    };
    if (!(element instanceof z.ZodObject)) {
      const itemName = itemLabel(name).toLowerCase().replace(/\W+/g, "_");
      return { ...list, field: cmsField(itemName, element, name) };
    }
    const fields = cmsFields(element);
    return { ...list, fields, summary: fields[0] && `{{fields.${fields[0].name}}}` };
  }
  if (schema instanceof z.ZodEnum)
    return { ...common, widget: "select", options: schema.options.map(String) };
  if (schema instanceof z.ZodNumber) {
    const { minimum, maximum } = jsonSchemaOf(schema);
    return { ...common, widget: "number", value_type: "int", min: minimum, max: maximum };
  }
  if (schema instanceof z.ZodString) {
    const { pattern } = jsonSchemaOf(schema);
    if (pictureFields.get(schema)) {
      // Uploaded into content/images/ and written as ./images/<file>, the path the page resolves.
      return {
        ...common,
        widget: "image",
        choose_url: false,
        accept: IMAGE_EXTENSIONS.map((extension) => `.${extension}`).join(","),
        media_folder: "/content/images",
        public_folder: "./images",
      };
    }
    if (pattern === DATE_PATTERN) {
      return {
        ...common,
        widget: "datetime",
        format: "YYYY-MM-DD",
        time_format: false,
        picker_utc: true,
        pattern: [pattern, refusal(schema)],
      };
    }
    const widget = LONG_TEXT_FIELDS.has(name) ? ("text" as const) : ("string" as const);
    // Plain text must hold more than spaces (the check reports "is empty (only spaces)").
    return {
      ...common,
      widget,
      pattern: pattern
        ? [pattern, refusal(schema)]
        : ["\\S", "Write some text here; spaces alone do not count."],
    };
  }
  throw new Error(
    `cms/fields.ts does not know how to edit the field "${name}" (${schema.def.type}). Add the case here.`,
  );
}

export function cmsFields(group: z.ZodObject): CmsField[] {
  return Object.entries(group.shape).map(([name, schema]) => cmsField(name, schema as z.ZodType));
}
