// Saving the document as its spec file: in place through the File System Access API where the browser
// has it (Chromium: the first save asks where, later saves write there), else as a download.

/** The part of the File System Access API used here (not yet in TypeScript's DOM types). */
interface WritableFile { write(data: string): Promise<void>; close(): Promise<void> }
interface FileHandle { readonly name: string; createWritable(): Promise<WritableFile> }
type SavePicker = (options: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }) => Promise<FileHandle>;

let handle: FileHandle | undefined;

/** Where a save went. */
export interface Saved { readonly name: string; readonly how: "file" | "download" }

/** Saves in place (asking where the first time); undefined when the user cancels the picker. */
export async function saveDocument(text: string, file: string): Promise<Saved | undefined> {
  const picker = (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (!picker) return downloadDocument(text, file);
  if (!handle) {
    try {
      handle = await picker({ suggestedName: file, types: [{ description: "animgraph spec", accept: { "application/json": [".json"] } }] });
    } catch (e) {
      if ((e as Error).name === "AbortError") return undefined;
      // No picker here (a headless or locked-down browser): download instead.
      return downloadDocument(text, file);
    }
  }
  const out = await handle.createWritable();
  await out.write(text);
  await out.close();
  return { name: handle.name, how: "file" };
}

/** Downloads the text as `file`. */
export function downloadDocument(text: string, file: string): Saved {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { name: file, how: "download" };
}

/** A new document (New graph, Open): the next save asks where again. */
export function forgetSaveTarget(): void {
  handle = undefined;
}

/** The document without its x- keys (what the runtime reads), or undefined when it does not parse. */
export function semanticKey(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text, (key, value: unknown) => (key.startsWith("x-") ? undefined : value)));
  } catch {
    return undefined;
  }
}
