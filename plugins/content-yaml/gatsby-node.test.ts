/**
 * content/ through Gatsby's hooks as Gatsby calls them: onPreBootstrap, then onCreateNode for each
 * File node, in every gatsby-node that has them (the site's own and this plugin's), with the real
 * gatsby-transformer-yaml behind this plugin and fakes for Gatsby's actions.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { CreateNodeArgs, GatsbyNode, Node, PluginOptions } from "gatsby";
import { checkContentFile } from "../../build-time/content/check-content";
import { CONTENT_FILES, contentFileSpec } from "../../build-time/content/content-files";
import {
  fakeReporter,
  validContentFolderPerTest,
} from "../../build-time/content/content-folder.test-support";

// Every content check starts with one parse of the saved text: counting parses counts checks.
jest.mock("../../build-time/content/yaml-source", () => {
  const actual = jest.requireActual<typeof import("../../build-time/content/yaml-source")>(
    "../../build-time/content/yaml-source",
  );
  return { ...actual, parseYaml: jest.fn(actual.parseYaml) };
});

// Drawing the pictures (build-time/pictures, tested there) takes seconds and is not what this file checks.
jest.mock("../../build-time/pictures/gatsby-pictures", () => ({
  ...jest.requireActual<typeof import("../../build-time/pictures/gatsby-pictures")>(
    "../../build-time/pictures/gatsby-pictures",
  ),
  createPictureDrawer: () => ({ draw: async () => undefined, drawSoon: () => undefined }),
}));

const { dir: contentFolder, file, read, edit } = validContentFolderPerTest();
/** The data the content check reads from the file as it is now. */
const checkedData = (name: string) =>
  checkContentFile(contentFolder(), contentFileSpec(path.parse(name).name)!, "content").data;

const PLUGIN_OPTIONS: PluginOptions = {
  plugins: [],
  typeName: ({ node }: { node: { name: string } }) => `${node.name}Content`,
};

/** The File node gatsby-source-filesystem makes for a file in the content folder. */
function fileNode(name: string): Node & { absolutePath: string; name: string } {
  const absolutePath = file(name);
  return {
    id: `File ${name}`,
    parent: null,
    children: [],
    absolutePath,
    name: path.parse(name).name,
    dir: path.dirname(absolutePath),
    internal: {
      type: "File",
      mediaType: "text/yaml",
      contentDigest: fs.readFileSync(absolutePath, "utf8"),
      owner: "gatsby-source-filesystem",
    },
  };
}

/**
 * A fresh Gatsby process over the temporary project, after onPreBootstrap: loads the site's
 * gatsby-node and this plugin's (module state starts anew, the content folder is the working
 * folder's).
 */
async function startGatsby() {
  jest.resetModules();
  const hookModules: GatsbyNode[] = [
    await import("../../gatsby-node"),
    await import("./gatsby-node"),
  ];
  const parseYaml = jest.mocked((await import("../../build-time/content/yaml-source")).parseYaml);
  const { reporter, calls } = fakeReporter();
  const created: Node[] = [];

  const gatsbyArgs = (node: Node) =>
    ({
      node,
      reporter,
      // As Gatsby: a node's own content if it has some, else its file's (gatsby-source-filesystem).
      loadNodeContent: async (loaded: Node & { absolutePath?: string }) =>
        loaded.internal.content ?? fs.readFileSync(loaded.absolutePath ?? "", "utf8"),
      actions: {
        createNode: (child: Node) => created.push(child),
        createParentChildLink: () => undefined,
      },
      createNodeId: (seed: string) => `node ${seed}`,
      createContentDigest: (input: unknown) => JSON.stringify(input),
    }) as unknown as CreateNodeArgs;

  for (const hooks of hookModules)
    await hooks.onPreBootstrap?.(
      gatsbyArgs(fileNode("hero.yaml")),
      PLUGIN_OPTIONS,
      () => undefined,
    );
  return {
    parses: () => parseYaml.mock.calls.length,
    calls,
    created,
    /** onCreateNode in every module that wants the node, as Gatsby does for a new or changed File node. */
    async createFileNode(node: Node) {
      for (const hooks of hookModules) {
        if (hooks.shouldOnCreateNode && !hooks.shouldOnCreateNode({ node }, PLUGIN_OPTIONS))
          continue;
        await hooks.onCreateNode?.(gatsbyArgs(node), PLUGIN_OPTIONS, () => undefined);
      }
    },
  };
}

const CONTENT_NAMES = CONTENT_FILES.map((spec) => `${spec.name}.yaml`);

/** A node's fields as a page query sees them (without Gatsby's bookkeeping). */
function fieldsOf(node: Node | undefined): Record<string, unknown> | undefined {
  if (!node) return undefined;
  const { id: _id, parent: _parent, children: _children, internal: _internal, ...fields } = node;
  return fields;
}

describe("checks per save", () => {
  it("checks and reports each file once at start-up, not again when Gatsby creates its node", async () => {
    const gatsby = await startGatsby();
    for (const name of CONTENT_NAMES) await gatsby.createFileNode(fileNode(name));
    expect(gatsby.parses()).toBe(CONTENT_NAMES.length);
    expect(gatsby.calls).toEqual([["info", "Content OK: 8 files checked."]]);
  });

  it("checks each saved text exactly once, with or without errors", async () => {
    const gatsby = await startGatsby();
    for (const headline of ["headline: A new headline", "headline: Another headline", ""]) {
      edit("hero.yaml", /^headline: .*$/m, headline);
      const before = gatsby.parses();
      await gatsby.createFileNode(fileNode("hero.yaml"));
      expect(gatsby.parses() - before).toBe(1);
    }
  });
});

describe("the page gets exactly what the check saw", () => {
  it("gatsby-transformer-yaml makes each node from the checked data: an unquoted date, an unquoted booth number, folded text", async () => {
    const expo = read("expo.yaml")
      .replace(/^startDate: .*$/m, "startDate: 2025-05-19")
      .replace(/^booth: .*$/m, "booth: 0713")
      .replace(/^heading: .*$/m, "heading: >-\n  Visit us\n  at the expo");
    const nodeFor = async (gatsby: Awaited<ReturnType<typeof startGatsby>>, name: string) => {
      gatsby.created.length = 0;
      await gatsby.createFileNode(fileNode(name));
      expect(gatsby.created).toHaveLength(1);
      expect(fieldsOf(gatsby.created[0])).toEqual(checkedData(name));
      return fieldsOf(gatsby.created[0]);
    };

    // As on disk at start-up (the nodes of `gatsby build`)…
    fs.writeFileSync(file("expo.yaml"), expo);
    const gatsby = await startGatsby();
    for (const name of CONTENT_NAMES) await nodeFor(gatsby, name);
    // …and as saved while `gatsby develop` runs.
    edit("expo.yaml", "  Visit us\n", "  Meet us\n");
    expect(await nodeFor(gatsby, "expo.yaml")).toMatchObject({
      startDate: "2025-05-19",
      booth: "0713",
      heading: "Meet us at the expo",
    });

    // What the transformer's own js-yaml 4 would have made of the saved text: the page would
    // have received a Date and the number 713.
    const transformerYaml = createRequire(require.resolve("gatsby-transformer-yaml/gatsby-node"))(
      "js-yaml",
    ) as { load(text: string): unknown };
    expect(transformerYaml.load(expo)).toMatchObject({
      startDate: new Date("2025-05-19T00:00:00Z"),
      booth: 713,
    });
  });

  it("a save with errors makes the node from the last version that passed (pipeline.test.ts: which one)", async () => {
    const gatsby = await startGatsby();
    const startUp = checkedData("hero.yaml");
    edit("hero.yaml", /^headline: .*$/m, 'headline: "x');
    await gatsby.createFileNode(fileNode("hero.yaml"));
    expect(fieldsOf(gatsby.created[0])).toEqual(startUp);
    expect(gatsby.calls.map(([method]) => method)).toEqual(["info", "panicOnBuild"]);
  });

  it("a YAML node that is not a file goes to gatsby-transformer-yaml unchecked", async () => {
    const gatsby = await startGatsby();
    const before = gatsby.parses();
    const { absolutePath: _absolutePath, ...hero } = fileNode("hero.yaml");
    await gatsby.createFileNode({
      ...hero,
      internal: { ...hero.internal, type: "Upload", content: "headline: [not checked]" },
    });
    expect(fieldsOf(gatsby.created[0])).toEqual({ headline: ["not checked"] });
    expect(gatsby.parses()).toBe(before);
  });
});
