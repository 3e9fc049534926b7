// Small DOM builders for the editor's forms: every control labelled, keyed (`data-key`) so a rebuilt
// form gives the focus back to the control that had it.

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** A button that calls `onClick`. */
export function button(label: string, key: string, onClick: () => void, aria?: string): HTMLButtonElement {
  const b = h("button", { type: "button", "data-key": key, text: label, ...(aria ? { "aria-label": aria } : {}) });
  b.addEventListener("click", onClick);
  return b;
}

/** A <select> of `options` ([value, label]) showing `value`; `onChange` on a new choice. */
export function select(label: string, key: string, options: readonly (readonly [string, string])[], value: string, onChange: (value: string) => void): HTMLSelectElement {
  const s = h("select", { "data-key": key, "aria-label": label });
  for (const [v, text] of options) s.append(h("option", { value: v, text }));
  if (!options.some(([v]) => v === value)) s.append(h("option", { value, text: value === "" ? "—" : `${value} (not available)` }));
  s.value = value;
  s.addEventListener("change", () => onChange(s.value));
  return s;
}

/**
 * A text or number field that commits on Enter or when it loses focus (change), not on every key: one
 * undo step per value typed.
 */
export function field(label: string, key: string, value: string, onCommit: (value: string) => void, type: "text" | "number" = "text", attrs: Record<string, string> = {}): HTMLInputElement {
  const input = h("input", { type, "data-key": key, "aria-label": label, ...attrs });
  input.value = value;
  let committed = value;
  const commit = (): void => {
    if (input.value === committed) return;
    committed = input.value;
    onCommit(input.value);
  };
  input.addEventListener("change", commit);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); commit(); } });
  return input;
}

/** A labelled row: the label's text, then the control(s). */
export function row(text: string, ...controls: Node[]): HTMLDivElement {
  return h("div", { class: "row" }, h("span", { class: "row-label", text }), ...controls);
}

/** Rebuilds `host` with `build()`, then focuses the control with the key that had the focus before. */
export function rebuildKeepingFocus(host: HTMLElement, build: () => Node[]): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && host.contains(active) ? active.dataset["key"] : undefined;
  const caret = active instanceof HTMLInputElement && active.type === "text" ? active.selectionStart : null;
  host.replaceChildren(...build());
  if (key === undefined) return;
  const again = host.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
  if (!again) return;
  again.focus({ preventScroll: true });
  if (again instanceof HTMLInputElement && again.type === "text" && caret !== null) again.setSelectionRange(caret, caret);
}
