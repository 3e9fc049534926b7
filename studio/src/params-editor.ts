// The parameters' declarations: add, rename (every reference follows), retype (conditions are rewritten
// to fit; a blend axis or speed that cannot follow is flagged) and delete (its conditions go; other
// references are flagged by the linter). Each row says where the parameter is read.
import type { DocumentEditor } from "./document-edit.ts";
import { button, field, h, rebuildKeepingFocus, select } from "./dom.ts";
import { addParam, declaredParams, deleteParam, isObject, PARAM_TYPES, setParamField, paramReferences, parseDocument, renameParam, retypeParam, type JsonObject, type ParamType } from "./graph-edits.ts";
import type { StudioStore } from "./store.ts";

export function createParamsEditor(host: HTMLElement, store: StudioStore, editor: DocumentEditor, report: (message: string) => void): void {
  const flag = (what: string, pointers: readonly string[]): void => {
    if (pointers.length > 0) report(`${what}: ${pointers.length} reference(s) cannot follow and are flagged: ${pointers.join(", ")}`);
  };
  /** Default, min and max of a number; the default of a bool. */
  const rangeFields = (doc: JsonObject, name: string, type: ParamType): Node[] => {
    const decl = isObject(doc["parameters"]) ? doc["parameters"][name] : undefined;
    if (!isObject(decl) || type === "trigger") return [];
    if (type === "bool") {
      const box = h("input", { type: "checkbox", "data-key": `p-default-${name}`, "aria-label": `${name} starts true` });
      box.checked = decl["default"] === true;
      box.addEventListener("change", () => editor.apply(`Set ${name}'s default`, (d) => setParamField(d, name, "default", box.checked ? true : undefined), { source: "params" }));
      return [box];
    }
    return (["default", "min", "max"] as const).map((key) => field(`${name} ${key}`, `p-${key}-${name}`, typeof decl[key] === "number" ? String(decl[key]) : "", (v) => {
      const n = v.trim() === "" || !Number.isFinite(Number(v)) ? undefined : Number(v);
      editor.apply(`Set ${name}'s ${key}`, (d) => setParamField(d, name, key, n), { source: "params" });
    }, "number", { placeholder: key, class: "range", step: type === "int" ? "1" : "0.1" }));
  };
  const render = (): void => rebuildKeepingFocus(host, () => {
    let doc: JsonObject;
    try { doc = parseDocument(store.text); } catch { return [h("p", { class: "hint", text: "The JSON does not parse." })]; }
    const params = declaredParams(doc);
    const errors = store.analysis.diagnostics.filter((d) => d.severity === "error");
    const list = h("ul", { class: "param-decls", "aria-label": "Declared parameters" });
    for (const p of params) {
      const refs = paramReferences(doc, p.name);
      const flagged = errors.filter((d) => refs.some((r) => d.pointer === r || d.pointer.startsWith(`${r}/`) || r.startsWith(`${d.pointer}/`)));
      const li = h("li", { "data-param-decl": p.name, class: flagged.length ? "flagged" : "" },
        field(`Parameter ${p.name} name`, `p-name-${p.name}`, p.name, (v) => {
          editor.apply(`Rename parameter ${p.name} to ${v}`, (d) => renameParam(d, p.name, v), { source: "params" });
        }),
        select(`Parameter ${p.name} type`, `p-type-${p.name}`, PARAM_TYPES.map((t) => [t, t] as const), p.type, (v) => {
          const left = editor.apply(`Make ${p.name} a ${v}`, (d) => retypeParam(d, p.name, v as ParamType), { source: "params" });
          if (left) flag(`${p.name} is now a ${v}`, left);
        }),
        ...rangeFields(doc, p.name, p.type),
        h("span", { class: "refs", title: refs.join("\n"), text: refs.length === 0 ? "unused" : `read ${refs.length}×` }),
        button("✕", `p-delete-${p.name}`, () => {
          const left = editor.apply(`Delete parameter ${p.name}`, (d) => deleteParam(d, p.name), { source: "params" });
          if (left) flag(`${p.name} deleted`, left);
        }, `Delete parameter ${p.name}`));
      if (flagged.length) li.title = flagged.map((d) => d.message).join("\n");
      list.append(li);
    }
    const name = h("input", { type: "text", "data-key": "p-new-name", "aria-label": "New parameter name", placeholder: "name" });
    const type = select("New parameter type", "p-new-type", PARAM_TYPES.map((t) => [t, t] as const), "float", () => {});
    const add = (): void => {
      const added = editor.apply(`Add parameter ${name.value || type.value}`, (d) => addParam(d, name.value.trim(), type.value as ParamType), { source: "params" });
      if (added) host.querySelector<HTMLInputElement>('[data-key="p-new-name"]')?.focus();
    };
    name.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); add(); } });
    return [list, h("div", { class: "param-add" }, name, type, button("Add parameter", "p-add", add))];
  });
  store.subscribe((change) => { if (change.text || change.analysis) render(); });
  render();
}
