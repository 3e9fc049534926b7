// Joint picking in the viewport, as in a DCC's or Unreal's skeleton view: hovering the character marks
// the joint under the pointer, a click (or a tap) selects it — the store's `selection.joint`, which every
// panel hears; not an undo step — and clicking empty space clears it. The selected joint is marked with
// its bones to its parent and children and labelled with its name. A field may *arm* the picker ("pick"
// buttons in the IK panel): the next joint clicked goes to that field instead, and Escape cancels. On the
// keyboard, the focused viewport's arrow keys walk the skeleton and Enter fills the armed field.
// A drag (orbiting) is not a click, and a press on the IK translate handle is the handle's.
import * as THREE from "three";
import type { Character } from "./character.ts";
import { createJointPicker, type JointHit, type JointPicker } from "./joint-pick.ts";
import type { StudioStore } from "./store.ts";
import type { Viewport } from "./viewport.ts";

/** A field waiting for a joint. */
export interface PickRequest {
  /** What the joint is for, in words ("End joint of Palm2.L IK"). */
  readonly label: string;
  /** A key for the field (the panel marks its armed button with it). */
  readonly key: string;
  /** The joint picked, by name. */
  pick(joint: string): void;
  /** Cancelled (Escape, another field armed, the character changed). */
  cancelled?(): void;
}

export interface JointPicking {
  /** The field armed, if any. */
  readonly armed: PickRequest | undefined;
  /** The joint under the pointer, by name (null: none). */
  readonly hovered: string | null;
  /** Waits for a joint clicked in the viewport for `request` (replacing any field armed before). */
  arm(request: PickRequest): void;
  cancel(): void;
  /** A new character (or none): picks against it; a joint it lacks is unselected. */
  setCharacter(character: Character | undefined): void;
  /** Every frame, once the pose is on the bones: moves the marks and the label. */
  update(): void;
  /** What a click at client point (x, y) would pick (tests, scripts). */
  pickAt(x: number, y: number): (JointHit & { name: string }) | null;
  /** Where a joint is drawn (client pixels). */
  screenOf(name: string): { x: number; y: number } | null;
}

export interface JointPickingLinks {
  /** The IK translate handle is under the pointer or dragged: the press is its own. */
  handleBusy(): boolean;
  /** While a field is armed the IK handle stands aside, so a click on it reaches the joint below. */
  setHandleEnabled(enabled: boolean): void;
  /** The skeleton overlay is drawn (bones are then picked before the mesh). */
  skeletonShown(): boolean;
  report(message: string): void;
}

/** A press that moves more than this (CSS pixels) is a drag, not a click. */
const CLICK_SLOP = 5;
const HOVER_COLOR = 0xd0d8e0;
const SELECTED_COLOR = 0xffe14d;

const overlay = <T extends THREE.Material>(m: T): T => {
  m.depthTest = false;
  m.depthWrite = false;
  m.transparent = true;
  return m;
};

export function createJointPicking(viewport: Viewport, store: StudioStore, host: HTMLElement, links: JointPickingLinks): JointPicking {
  const canvas = viewport.renderer.domElement;
  let character: Character | undefined;
  let picker: JointPicker | undefined;
  let armed: PickRequest | undefined;
  let hovered = -1;

  // The marks: a dot on the hovered joint, a bigger one on the selected joint with its bones, over the mesh.
  const marks = new THREE.Group();
  marks.name = "joint-marks";
  marks.renderOrder = 1000;
  const dotGeometry = new THREE.SphereGeometry(1, 12, 8);
  const hoverDot = new THREE.Mesh(dotGeometry, overlay(new THREE.MeshBasicMaterial({ color: HOVER_COLOR, opacity: 0.7 })));
  const selectedDot = new THREE.Mesh(dotGeometry, overlay(new THREE.MeshBasicMaterial({ color: SELECTED_COLOR })));
  const boneGeometry = new THREE.BufferGeometry();
  const bones = new THREE.LineSegments(boneGeometry, overlay(new THREE.LineBasicMaterial({ color: SELECTED_COLOR })));
  for (const o of [hoverDot, selectedDot, bones]) { o.renderOrder = 1000; o.visible = false; marks.add(o); }
  viewport.scene.add(marks);
  const label = document.createElement("output");
  label.className = "joint-label";
  label.setAttribute("aria-live", "polite");
  label.setAttribute("aria-label", "Selected joint");
  label.hidden = true;
  host.append(label);

  const jointIndex = (name: string | null): number => (name === null || !character ? -1 : character.skeleton.indexOf.get(name) ?? -1);
  const nameOf = (j: number): string | null => (character && j >= 0 ? character.skeleton.names[j] ?? null : null);
  const objectOf = (j: number): THREE.Object3D | undefined => {
    const at = character && j >= 0 ? character.binding.objectOfJoint[j] ?? -1 : -1;
    return at >= 0 ? character!.binding.objects[at] : undefined;
  };
  const pick = (x: number, y: number): JointHit | null =>
    picker ? picker.pick(x, y, { bonesFirst: links.skeletonShown() }) : null;

  const setArmed = (next: PickRequest | undefined): void => {
    armed = next;
    links.setHandleEnabled(next === undefined);
    canvas.classList.toggle("picking", next !== undefined);
    document.body.dataset["jointPick"] = next ? next.key : "";
  };

  // Click or tap: a press and a release within a few pixels, not on the IK handle.
  let press: { x: number; y: number; id: number } | undefined;
  canvas.addEventListener("pointerdown", (e) => {
    press = e.button === 0 && !(links.handleBusy() && !armed) ? { x: e.clientX, y: e.clientY, id: e.pointerId } : undefined;
  });
  canvas.addEventListener("pointerup", (e) => {
    const p = press;
    press = undefined;
    if (!p || p.id !== e.pointerId || Math.hypot(e.clientX - p.x, e.clientY - p.y) > CLICK_SLOP || !character) return;
    const hit = pick(e.clientX, e.clientY);
    const name = hit ? nameOf(hit.joint) : null;
    if (armed) {
      if (name === null) { links.report(`No joint there: click on the character for ${armed.label} (Escape cancels)`); return; }
      const request = armed;
      setArmed(undefined);
      request.pick(name);
      return;
    }
    store.select({ joint: name }, "viewport");
  });

  // Hover: one pick per frame at most, at the last place the pointer was.
  let hoverAt: { x: number; y: number } | undefined;
  canvas.addEventListener("pointermove", (e) => {
    if (e.buttons !== 0 && !armed) { hoverAt = undefined; hovered = -1; return; }
    hoverAt = { x: e.clientX, y: e.clientY };
  });
  canvas.addEventListener("pointerleave", () => { hoverAt = undefined; hovered = -1; });

  // The keyboard, on the focused viewport: the arrows walk the skeleton from the selected joint (Maya's
  // pick-walking: ↑ parent, ↓ first child, ← → siblings), and Enter puts it into the armed field.
  host.addEventListener("keydown", (e) => {
    if (!character || e.ctrlKey || e.metaKey || e.altKey || e.target !== host) return;
    const s = character.skeleton;
    const current = jointIndex(store.selection.joint);
    if ((e.key === "Enter" || e.key === " ") && armed) {
      e.preventDefault();
      if (current < 0) { links.report(`Select a joint first (click it, or walk to it with the arrow keys) for ${armed.label}`); return; }
      const request = armed;
      setArmed(undefined);
      request.pick(s.names[current]!);
      return;
    }
    const next = walk(e.key, current);
    if (next === undefined) return;
    e.preventDefault();
    if (next >= 0) store.select({ joint: s.names[next]! }, "viewport");
  });
  /** The joint an arrow key walks to from `from` (−1: none there); undefined for another key. */
  function walk(key: string, from: number): number | undefined {
    const s = character!.skeleton;
    const parents = Array.from(s.parents);
    if (!["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"].includes(key)) return undefined;
    if (from < 0) return parents.indexOf(-1);
    if (key === "ArrowUp") return parents[from]!;
    if (key === "ArrowDown") return parents.indexOf(from);
    const siblings = parents.flatMap((p, k) => (p === parents[from] ? [k] : []));
    const at = siblings.indexOf(from);
    return siblings[(at + (key === "ArrowRight" ? 1 : siblings.length - 1)) % siblings.length]!;
  }

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && armed) {
      e.preventDefault();
      e.stopPropagation();
      const request = armed;
      setArmed(undefined);
      request.cancelled?.();
      links.report(`Picking cancelled: ${request.label} unchanged`);
    }
  }, true);

  const a = new THREE.Vector3(), at = new THREE.Vector3();
  /** The joint whose bones the line buffer holds, and the joints at their other ends. */
  let marked = -1;
  let neighbours: number[] = [];
  const markBones = (j: number): void => {
    marked = j;
    const s = character!.skeleton;
    neighbours = [s.parents[j]!, ...Array.from(s.parents).flatMap((p, k) => (p === j ? [k] : []))].filter((k) => objectOf(k) !== undefined);
    boneGeometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(6 * Math.max(1, neighbours.length)), 3));
  };
  const placeDot = (dot: THREE.Mesh, j: number, size: number): boolean => {
    const obj = objectOf(j);
    dot.visible = obj !== undefined;
    if (!obj) return false;
    obj.getWorldPosition(dot.position);
    dot.scale.setScalar(size);
    return true;
  };

  const api: JointPicking = {
    get armed() { return armed; },
    get hovered() { return nameOf(hovered); },
    arm(request) {
      const before = armed;
      setArmed(request);
      if (before && before !== request) before.cancelled?.();
      links.report(`Click a joint in the viewport for ${request.label} (or arrows and Enter there; Escape cancels)`);
    },
    cancel() {
      const request = armed;
      if (!request) return;
      setArmed(undefined);
      request.cancelled?.();
    },
    setCharacter(next) {
      character = next;
      picker = next ? createJointPicker(next, viewport.camera, canvas) : undefined;
      hovered = -1;
      marked = -1;
      api.cancel();
      const joint = store.selection.joint;
      if (joint !== null && jointIndex(joint) < 0) store.select({ joint: null }, "viewport");
    },
    update() {
      if (hoverAt && character) {
        hovered = pick(hoverAt.x, hoverAt.y)?.joint ?? -1;
        hoverAt = undefined;
      }
      const size = viewport.size();
      const selected = jointIndex(store.selection.joint);
      hoverDot.visible = hovered >= 0 && hovered !== selected && placeDot(hoverDot, hovered, size * 0.008);
      canvas.style.cursor = armed ? "crosshair" : hovered >= 0 ? "pointer" : "";
      if (selected < 0 || !placeDot(selectedDot, selected, size * 0.011)) {
        selectedDot.visible = bones.visible = false;
        label.hidden = true;
        return;
      }
      // The selected joint's bones: to its parent and to each child (the buffer made once per selection).
      if (marked !== selected) markBones(selected);
      const self = selectedDot.position;
      const pos = boneGeometry.getAttribute("position") as THREE.BufferAttribute | undefined;
      if (pos) {
        neighbours.forEach((j, k) => {
          objectOf(j)!.getWorldPosition(a);
          pos.setXYZ(2 * k, self.x, self.y, self.z);
          pos.setXYZ(2 * k + 1, a.x, a.y, a.z);
        });
        pos.needsUpdate = true;
        boneGeometry.computeBoundingSphere();
      }
      bones.visible = neighbours.length > 0;
      const s = character!.skeleton;
      const name = s.names[selected]!;
      if (label.textContent !== name) label.textContent = name;
      label.hidden = false;
      at.copy(self).project(viewport.camera);
      const rect = canvas.getBoundingClientRect(), hostRect = host.getBoundingClientRect();
      label.style.left = `${rect.left - hostRect.left + ((at.x + 1) / 2) * rect.width + 10}px`;
      label.style.top = `${rect.top - hostRect.top + ((1 - at.y) / 2) * rect.height - 10}px`;
    },
    pickAt(x, y) {
      const hit = pick(x, y);
      const name = hit ? nameOf(hit.joint) : null;
      return hit && name !== null ? { ...hit, name } : null;
    },
    screenOf(name) {
      const j = jointIndex(name);
      if (j < 0 || !picker) return null;
      const s = picker.screenOf(j);
      return { x: s.x, y: s.y };
    },
  };
  return api;
}
