/**
 * The GraphQL types of the content files, generated from their zod schemas for gatsby-node.ts
 * (createSchemaCustomization): declared, not inferred, so a query never silently loses a field.
 * Every field is required (`!`) but an optional one; an own picture too (a drawn one fills it).
 */
import { z } from "zod";
import { CONTENT_FILES, type ContentFileSpec } from "./content-files";
import { graphqlTypeNames, pictureFields } from "./fields";

/** content/hero.yaml → HeroContent: the node type plugins/content-yaml makes (gatsby-config.ts). */
export function contentTypeName(fileName: string): string {
  return `${fileName.charAt(0).toUpperCase()}${fileName.slice(1)}Content`;
}

type ObjectType = { declaration: string; fields: string; where: string };

/** The type definitions (SDL) of every content file and the groups in it. */
export function contentTypeDefinitions(files: readonly ContentFileSpec[] = CONTENT_FILES): string {
  const types = new Map<string, ObjectType>();
  for (const spec of files) {
    const name = contentTypeName(spec.name);
    const declaration = `type ${name} implements Node @dontInfer`;
    addObjectType(types, name, declaration, spec.schema, `content/${spec.name}.yaml`);
  }
  return [...types.values()]
    .map(({ declaration, fields }) => `${declaration} {\n${fields}\n}`)
    .join("\n\n");
}

function addObjectType(
  types: Map<string, ObjectType>,
  name: string,
  declaration: string,
  schema: z.ZodObject,
  where: string,
): void {
  const fields = Object.entries(schema.shape)
    .map(([field, value]) => {
      const fieldSchema = value as z.ZodType;
      const byPath = isPicture(fieldSchema) ? " @fileByRelativePath" : "";
      return `  ${field}: ${outputType(types, fieldSchema, `${where} › ${field}`)}${byPath}`;
    })
    .join("\n");
  const sameName = types.get(name);
  if (sameName && sameName.fields !== fields)
    throw new Error(
      `GraphQL type ${name} is given to groups with different fields: ${sameName.where} and ${where}. Name one of them differently in its group().`,
    );
  if (!sameName) types.set(name, { declaration, fields, where });
}

/** A picture path, or a list of them: Gatsby resolves it to the File node at that path. */
function isPicture(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodOptional) return isPicture(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return isPicture(schema.element as z.ZodType);
  return pictureFields.get(schema) !== undefined;
}

/** "String!", "[Figure!]!", "File!"… for the field at `where`; names the path of what it cannot map. */
function outputType(types: Map<string, ObjectType>, schema: z.ZodType, where: string): string {
  if (schema instanceof z.ZodOptional) {
    const whenPresent = outputType(types, schema.unwrap() as z.ZodType, where);
    return pictureFields.get(schema)?.drawnWhenEmpty ? whenPresent : whenPresent.replace(/!$/, "");
  }
  if (schema instanceof z.ZodArray)
    return `[${outputType(types, schema.element as z.ZodType, `${where}[]`)}]!`;
  if (schema instanceof z.ZodObject) {
    const name = graphqlTypeNames.get(schema)?.name;
    if (!name)
      throw new Error(
        `${where}: a group without a GraphQL type name. Make it with group("TypeName", …) (build-time/content/fields.ts).`,
      );
    addObjectType(types, name, `type ${name}`, schema, where);
    return `${name}!`;
  }
  if (pictureFields.get(schema)) return "File!";
  if (schema instanceof z.ZodString) return "String!";
  // A GraphQL enum would change the page's query types; the content check already refuses other words.
  const words =
    schema instanceof z.ZodEnum
      ? schema.options
      : schema instanceof z.ZodLiteral
        ? [...schema.values]
        : undefined;
  if (words?.every((word) => typeof word === "string")) return "String!";
  if (schema instanceof z.ZodNumber) return schema.format === "safeint" ? "Int!" : "Float!";
  throw new Error(
    `${where}: build-time/content/graphql-types.ts cannot give a zod ${schema.def.type} a GraphQL type. Add the case there rather than letting Gatsby infer one.`,
  );
}
