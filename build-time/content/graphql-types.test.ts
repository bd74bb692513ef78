/**
 * The GraphQL types generated from the content's zod schemas: what each zod construct becomes,
 * and the loud failures for what has no GraphQL type yet.
 */
import { buildASTSchema, parse } from "graphql";
import { z } from "zod";
import { DRAWN_PICTURES } from "../pictures/drawn-pictures";
import { CONTENT_FILES, type ContentFileSpec } from "./content-files";
import { contentFile, group, imagePath, list, pictureFields, text, year } from "./fields";
import { contentTypeDefinitions, contentTypeName } from "./graphql-types";

/** What Gatsby itself declares and the generated types refer to. */
const GATSBY_BUILT_INS = `
  directive @dontInfer on OBJECT
  directive @fileByRelativePath on FIELD_DEFINITION
  interface Node { id: ID! }
  type File implements Node { id: ID! }
`;

function typesOf(shape: z.ZodRawShape, name = "news"): string {
  const spec: ContentFileSpec = {
    name,
    section: "News",
    schema: contentFile(shape, "News", "The news."),
  };
  return contentTypeDefinitions([spec]);
}

const author = group("Author", { name: text("The name.") }, "Who wrote it.");

it("names each file's node type after the file, as plugins/content-yaml does", () => {
  expect(contentTypeName("hero")).toBe("HeroContent");
});

it("declares every content file as a Node type Gatsby can build a schema from", () => {
  const sdl = contentTypeDefinitions();
  expect(() => buildASTSchema(parse(`${GATSBY_BUILT_INS}\n${sdl}`))).not.toThrow();
  for (const spec of CONTENT_FILES)
    expect(sdl).toContain(`type ${contentTypeName(spec.name)} implements Node @dontInfer {`);
  expect(sdl).toContain(
    "type Offering {\n  name: String!\n  subtitle: String!\n  headerStyle: String!\n  highlights: [String!]!\n}",
  );
});

it("maps text, choices, years, groups, lists and pictures, required unless optional", () => {
  const picture = imagePath("A picture.");
  expect(
    typesOf({
      title: text("The title."),
      colour: z.enum(["red", "blue"]),
      kind: z.literal("press"),
      since: year("The year.", "2010"),
      author,
      tags: list(text("A tag."), "The tags."),
      pictures: list(picture, "The pictures."),
      cover: picture,
      subtitle: text("The subtitle.").optional(),
      score: z.number(),
    }),
  ).toBe(`type Author {
  name: String!
}

type NewsContent implements Node @dontInfer {
  title: String!
  colour: String!
  kind: String!
  since: Int!
  author: Author!
  tags: [String!]!
  pictures: [File!]! @fileByRelativePath
  cover: File! @fileByRelativePath
  subtitle: String
  score: Float!
}`);
});

it("keeps an editor's own picture required: the drawn picture fills it when left empty", () => {
  const sdl = contentTypeDefinitions();
  expect(sdl).toContain("  shareImage: File! @fileByRelativePath\n");
  expect(typesOf({ photo: imagePath("A photo.").optional() })).toContain(
    "  photo: File @fileByRelativePath\n",
  );
  // Only what build-time/pictures draws may be marked so.
  const drawnWhenEmpty = CONTENT_FILES.flatMap((spec) =>
    Object.entries(spec.schema.shape)
      .filter(([, schema]) => pictureFields.get(schema as z.ZodType)?.drawnWhenEmpty)
      .map(([field]) => `${spec.name}.${field}`),
  );
  expect(drawnWhenEmpty.sort()).toEqual(
    Object.values(DRAWN_PICTURES)
      .map((picture) => `${picture.contentFile}.${picture.field}`)
      .sort(),
  );
});

it("declares a type shared by several groups once, and refuses one name for different fields", () => {
  const otherAuthor = group("Author", { name: text("Another description.") }, "Who wrote it.");
  expect(typesOf({ author, editor: otherAuthor }).match(/type Author /g)).toHaveLength(1);
  const different = group("Author", { fullName: text("The name.") }, "Who wrote it.");
  expect(() => typesOf({ author, editor: different })).toThrow(
    "GraphQL type Author is given to groups with different fields: content/news.yaml › author and content/news.yaml › editor. Name one of them differently in its group().",
  );
});

it("fails with the schema path where a zod construct has no GraphQL type, rather than letting Gatsby infer one", () => {
  expect(() =>
    typesOf({ items: list(z.strictObject({ name: text("The name.") }), "Items.") }),
  ).toThrow(
    'content/news.yaml › items[]: a group without a GraphQL type name. Make it with group("TypeName", …) (build-time/content/fields.ts).',
  );
  expect(() => typesOf({ author: group("Author", { active: z.boolean() }, "Who.") })).toThrow(
    "content/news.yaml › author › active: build-time/content/graphql-types.ts cannot give a zod boolean a GraphQL type. Add the case there rather than letting Gatsby infer one.",
  );
});
