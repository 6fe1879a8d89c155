/**
 * JSON for objects built from shared, frozen parts. A repeated task (the offline scorer's memo, an unchanged
 * issue scored again) gets a new report each time, but its persona scores and its reading are the same frozen
 * objects as last time: their JSON text is made once and reused, so a report costs the text of its few new
 * fields (the task echoed, the consensus with its timestamp) instead of the whole report.
 *
 * Only objects passed to `shared` are remembered. `shared` freezes them deeply, so a remembered text can never
 * go stale; the texts go when the objects do (a WeakMap). A text is kept from its second use on: a task seen
 * once (most of a busy service's) keeps no second copy of its report in memory (measured: +10 MB of peak RSS
 * in the REST bench when every text was kept).
 */
const texts = new WeakMap<object, string | number>();

/** Freeze `value` and everything in it, and let `sharedJson` remember its text. Returns `value`. */
export function shared<T extends object>(value: T): T {
  deepFreeze(value);
  if (!texts.has(value)) texts.set(value, 0);
  return value;
}

function deepFreeze(value: object): void {
  // An object shared already is frozen through; any other one is walked, even if frozen itself (its parts may
  // not be). JSON has no cycles, and a value with one could not be written as JSON anyway.
  if (texts.has(value)) return;
  for (const v of Object.values(value)) if (v !== null && typeof v === "object") deepFreeze(v);
  Object.freeze(value);
}

/** Whether `value` was given to `shared` (tests). */
export function isShared(value: object): boolean {
  return texts.has(value);
}

function textOf(value: unknown): string | undefined {
  if (value !== null && typeof value === "object") {
    const remembered = texts.get(value);
    if (typeof remembered === "string") return remembered;
    if (remembered !== undefined) {
      const made = JSON.stringify(value);
      texts.set(value, remembered >= 1 ? made : remembered + 1);
      return made;
    }
  }
  return JSON.stringify(value);
}

/**
 * `JSON.stringify(value)`'s text, with the text of a plain object's shared properties reused. Anything else (an
 * array, a class instance, an object with `toJSON`) is stringified as usual. One difference, which no report
 * has: a property's `toJSON` is called with "" instead of the property's name.
 */
export function sharedJson(value: unknown): string {
  if (
    value === null ||
    typeof value !== "object" ||
    Object.getPrototypeOf(value) !== Object.prototype ||
    typeof (value as { toJSON?: unknown }).toJSON === "function" ||
    texts.has(value)
  )
    return textOf(value) as string;
  let out = "";
  for (const key in value) {
    const text = textOf((value as Record<string, unknown>)[key]);
    if (text === undefined) continue; // undefined, a function or a symbol: left out, as JSON.stringify does
    out += `${out === "" ? "{" : ","}${JSON.stringify(key)}:${text}`;
  }
  return out === "" ? "{}" : `${out}}`;
}
