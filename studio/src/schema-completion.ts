// Completion from schema/animgraph.schema.json: at a key, the keys the schema allows there (not yet
// present); at a value, its enum/const values, booleans, and the graph's own names (states for "to",
// "from" and "entry", clips for "clip", parameters for "param"). The JSON path at the cursor comes from
// CodeMirror's JSON syntax tree. (codemirror-json-schema does this too, but pulls shiki, markdown-it
// and yaml into the page for hover docs; this is the part the studio needs.)
import { syntaxTree } from "@codemirror/language";
import type { Completion, CompletionContext, CompletionResult } from "@codemirror/autocomplete";
import type { SyntaxNode } from "@lezer/common";

export type JsonSchema = { [key: string]: unknown };

/** Names the graph itself offers for a value at `key` (e.g. state names for "to"). */
export type NameSource = (key: string) => readonly string[];

const VALUE_NODES = new Set(["String", "Number", "True", "False", "Null", "⚠"]);

function resolveRef(root: JsonSchema, schema: unknown): JsonSchema | undefined {
  let s = schema as JsonSchema | undefined;
  for (let guard = 0; s && typeof s["$ref"] === "string" && guard < 16; guard++) {
    const path = (s["$ref"] as string).replace(/^#\//, "").split("/");
    let target: unknown = root;
    for (const p of path) target = (target as JsonSchema | undefined)?.[p];
    s = target as JsonSchema | undefined;
  }
  return s && typeof s === "object" ? s : undefined;
}

/** The schema itself and every oneOf/anyOf/allOf branch, refs resolved (properties are merged from all). */
function branches(root: JsonSchema, schema: JsonSchema | undefined): JsonSchema[] {
  const s = resolveRef(root, schema);
  if (!s) return [];
  const out = [s];
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    const list = s[key];
    if (Array.isArray(list)) for (const b of list) out.push(...branches(root, b as JsonSchema));
  }
  return out;
}

/** The schema of the value at `path` ("[]" for an array element). */
export function schemaAt(root: JsonSchema, path: readonly string[]): JsonSchema[] {
  let current = branches(root, root);
  for (const key of path) {
    const next: JsonSchema[] = [];
    for (const s of current) {
      if (key === "[]") {
        if (s["items"]) next.push(...branches(root, s["items"] as JsonSchema));
        continue;
      }
      const props = s["properties"] as Record<string, JsonSchema> | undefined;
      if (props && key in props) { next.push(...branches(root, props[key])); continue; }
      const patterns = s["patternProperties"] as Record<string, JsonSchema> | undefined;
      const matched = patterns && Object.entries(patterns).find(([re, v]) => typeof v === "object" && new RegExp(re).test(key));
      if (matched) { next.push(...branches(root, matched[1])); continue; }
      if (typeof s["additionalProperties"] === "object") next.push(...branches(root, s["additionalProperties"] as JsonSchema));
    }
    current = next;
  }
  return current;
}

const keyText = (state: CompletionContext["state"], node: SyntaxNode): string => {
  try {
    return JSON.parse(state.sliceDoc(node.from, node.to)) as string;
  } catch {
    return state.sliceDoc(node.from, node.to).replace(/^"|"$/g, "");
  }
};

/** Keys of the enclosing objects and "[]" for arrays, from the root down to `node`'s container. */
function pathTo(ctx: CompletionContext, node: SyntaxNode | null): string[] {
  const path: string[] = [];
  for (let n = node; n; n = n.parent) {
    if (n.name === "Property") {
      const name = n.getChild("PropertyName");
      if (name) path.unshift(keyText(ctx.state, name));
    } else if (n.name === "Array") {
      path.unshift("[]");
    }
  }
  return path;
}

export function schemaCompletion(root: JsonSchema, names: NameSource) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const node = syntaxTree(ctx.state).resolveInner(ctx.pos, -1);
    // At a key: inside a PropertyName, or in an object between members.
    if (node.name === "PropertyName" || node.name === "Object" || node.name === "{" || (node.name === "," && node.parent?.name === "Object")) {
      const object = node.name === "PropertyName" ? node.parent!.parent! : node.name === "Object" ? node : node.parent!;
      const present = new Set(object.getChildren("Property").map((p) => p.getChild("PropertyName")).filter((n): n is SyntaxNode => n !== null && n !== node).map((n) => keyText(ctx.state, n)));
      const options: Completion[] = [];
      const seen = new Set<string>();
      for (const s of schemaAt(root, pathTo(ctx, object))) {
        for (const [key, sub] of Object.entries((s["properties"] as Record<string, JsonSchema> | undefined) ?? {})) {
          if (present.has(key) || seen.has(key)) continue;
          seen.add(key);
          const description = resolveRef(root, sub)?.["description"] ?? sub["description"];
          options.push({ label: `"${key}"`, type: "property", ...(typeof description === "string" ? { info: description } : {}), apply: `"${key}": ` });
        }
      }
      if (options.length === 0) return null;
      const from = node.name === "PropertyName" ? node.from : (ctx.matchBefore(/"?[\w$-]*/)?.from ?? ctx.pos);
      return { from, options, validFor: /^"?[\w$-]*"?$/ };
    }
    // At a value: a scalar that is a property's value or an array element, or right after a colon.
    const property = VALUE_NODES.has(node.name) ? node.parent : node.name === "Property" || node.name === ":" ? (node.name === ":" ? node.parent : node) : null;
    if (!property) return null;
    const key = property.name === "Property" ? keyText(ctx.state, property.getChild("PropertyName")!) : "";
    const path = pathTo(ctx, property);
    const values = new Set<string>();
    for (const s of schemaAt(root, path)) {
      if (Array.isArray(s["enum"])) for (const v of s["enum"]) values.add(JSON.stringify(v));
      if ("const" in s) values.add(JSON.stringify(s["const"]));
      if (s["type"] === "boolean") { values.add("true"); values.add("false"); }
    }
    for (const name of names(key)) values.add(JSON.stringify(name));
    if (values.size === 0) return null;
    const from = VALUE_NODES.has(node.name) ? node.from : ctx.pos;
    return { from, options: [...values].map((label) => ({ label, type: "constant" })), validFor: /^"?[^"]*"?$/ };
  };
}
