/**
 * Appends every item of `items` to `target`. Unlike `target.push(...items)`, which passes each item as
 * an argument and overflows the stack past about 100,000 of them, it works for any length.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
}
