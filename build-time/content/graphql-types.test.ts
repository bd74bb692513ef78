/**
 * gatsby-node.ts declares the GraphQL type of every content file by hand (createTypes). The zod
 * schemas are the content model; this test fails when the two disagree on a field's name, on
 * whether it is a list, on its scalar type (String, Int, File for pictures), or on it being
 * required (`!`), so adding a field to one and forgetting the other is caught before a build.
 */
import fs from "node:fs";
import path from "node:path";
import { buildASTSchema, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, parse, type GraphQLOutputType } from "graphql";
import { z } from "zod";
import { CONTENT_FILES } from "./content-files";
import { fieldHelp } from "./fields";

const GATSBY_NODE = path.join(__dirname, "..", "..", "gatsby-node.ts");

/** What Gatsby itself declares and the hand-written types refer to. */
const GATSBY_BUILT_INS = `
  directive @dontInfer on OBJECT
  directive @fileByRelativePath on FIELD_DEFINITION
  interface Node { id: ID! }
  type File implements Node { id: ID! }
`;

function declaredTypes() {
  const source = fs.readFileSync(GATSBY_NODE, "utf8");
  const sdl = /createTypes\(`([\s\S]*?)`\)/.exec(source)?.[1];
  if (!sdl) throw new Error("gatsby-node.ts has no actions.createTypes(`…`) call.");
  return buildASTSchema(parse(`${GATSBY_BUILT_INS}\n${sdl}`));
}

function typeNameOf(fileName: string): string {
  return `${fileName.charAt(0).toUpperCase()}${fileName.slice(1)}Content`;
}

/** "String!", "[Figure!]!"… as the zod schema implies, with nested groups compared recursively. */
function differences(schema: z.ZodType, type: GraphQLOutputType, where: string): string[] {
  // An editor's own picture may be left empty: the drawn picture fills the field (build-time/pictures), so it is still "File!".
  if (schema instanceof z.ZodOptional) {
    const inner = schema.unwrap() as z.ZodType;
    if (scalarFor(inner) !== "File") return [`${where}: optional in the content model; only a picture field has a drawn default.`];
    return differences(inner, type, where);
  }
  if (!(type instanceof GraphQLNonNull)) return [`${where}: required in the content model, so it must end with "!" in GraphQL.`];
  const inner = type.ofType;
  if (schema instanceof z.ZodArray) {
    if (!(inner instanceof GraphQLList)) return [`${where}: a list in the content model, not in GraphQL.`];
    return differences(schema.element as z.ZodType, inner.ofType, `${where}[]`);
  }
  if (inner instanceof GraphQLList) return [`${where}: a list in GraphQL, not in the content model.`];
  if (schema instanceof z.ZodObject) {
    if (!(inner instanceof GraphQLObjectType)) return [`${where}: a group of fields in the content model, ${inner.toString()} in GraphQL.`];
    return objectDifferences(schema, inner, where);
  }
  const expected = scalarFor(schema);
  const actual = inner instanceof GraphQLScalarType || inner instanceof GraphQLObjectType ? inner.name : inner.toString();
  return actual === expected ? [] : [`${where}: ${expected} in the content model, ${actual} in GraphQL.`];
}

function scalarFor(schema: z.ZodType): string {
  if (schema instanceof z.ZodNumber) return "Int";
  if (fieldHelp.get(schema)?.expected.startsWith("the path of a picture")) return "File";
  return "String";
}

function objectDifferences(schema: z.ZodObject, type: GraphQLObjectType, where: string): string[] {
  const fields = type.getFields();
  const modelNames = Object.keys(schema.shape);
  const extra = Object.keys(fields)
    .filter((name) => name !== "id" && !modelNames.includes(name))
    .map((name) => `${where}.${name}: in GraphQL (${type.name}) but not in the content model.`);
  const mismatched = Object.entries(schema.shape).flatMap(([name, fieldSchema]) => {
    const field = fields[name];
    if (!field) return [`${where}.${name}: in the content model but not in GraphQL (${type.name}).`];
    return differences(fieldSchema as z.ZodType, field.type, `${where}.${name}`);
  });
  return [...mismatched, ...extra];
}

describe("GraphQL types in gatsby-node.ts", () => {
  const schema = declaredTypes();

  it.each(CONTENT_FILES.map((spec) => [spec.name, spec] as const))("%s matches its zod schema", (name, spec) => {
    const type = schema.getType(typeNameOf(name));
    if (!(type instanceof GraphQLObjectType)) throw new Error(`gatsby-node.ts declares no type ${typeNameOf(name)} for content/${name}.yaml.`);
    expect(objectDifferences(spec.schema, type, `content/${name}.yaml`)).toEqual([]);
  });

  it("reports a field missing from GraphQL (the comparison can fail)", () => {
    const hero = CONTENT_FILES.find((spec) => spec.name === "hero");
    const type = schema.getType("HeroContent");
    if (!hero || !(type instanceof GraphQLObjectType)) throw new Error("no hero");
    const withExtraField = hero.schema.extend({ subheadline: z.string() });
    expect(objectDifferences(withExtraField, type, "content/hero.yaml")).toEqual([
      "content/hero.yaml.subheadline: in the content model but not in GraphQL (HeroContent).",
    ]);
  });
});
