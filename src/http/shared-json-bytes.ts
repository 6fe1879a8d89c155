import { isShared, sharedJson } from "../core/shared-json.js";

/**
 * The UTF-8 bytes of each shared part's JSON (see core/shared-json.ts), kept like `sharedJson` keeps its texts:
 * from a part's second use on (a number counts the uses before), and gone with the part (a WeakMap).
 */
const bytesOf = new WeakMap<object, Buffer | number>();

/** A shared part's bytes; `null` for a shared part not kept yet; `undefined` for any other value. */
function sharedBytes(value: object): Buffer | null | undefined {
  const kept = bytesOf.get(value);
  if (kept !== undefined && typeof kept !== "number") return kept;
  if (!isShared(value)) return undefined;
  if (kept === undefined) {
    bytesOf.set(value, 1);
    return null;
  }
  const made = Buffer.from(sharedJson(value), "utf8");
  bytesOf.set(value, made);
  return made;
}

/**
 * `sharedJson(value)`'s JSON, as bytes when the value holds shared parts already kept: a report of a repeated
 * task (a memo hit) is its few new fields' text and its shared parts' bytes, made once, copied into one buffer.
 * As a string, the same report is joined from the parts' texts, then flattened, measured for its
 * `Content-Length` and encoded to UTF-8 by node on every request (its persona texts' emoji make the whole
 * string two bytes a character): about 1.5 µs of a one-word REST request's CPU. Anything else, and a report
 * whose shared parts are new, is `sharedJson`'s text as before.
 */
export function sharedJsonBytes(value: unknown): string | Buffer {
  if (
    value === null ||
    typeof value !== "object" ||
    Object.getPrototypeOf(value) !== Object.prototype ||
    typeof (value as { toJSON?: unknown }).toJSON === "function" ||
    isShared(value)
  )
    return sharedJson(value);
  // Texts and shared parts' bytes, in order; `text` is the text since the last shared part.
  const pieces: (string | Buffer)[] = [];
  let text = "";
  let size = 0;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    const bytes = v !== null && typeof v === "object" ? sharedBytes(v) : undefined;
    if (bytes === null) return sharedJson(value);
    const head = `${text === "" && pieces.length === 0 ? "{" : ","}${JSON.stringify(key)}:`;
    if (bytes !== undefined) {
      text += head;
      size += Buffer.byteLength(text) + bytes.length;
      pieces.push(text, bytes);
      text = "";
      continue;
    }
    // Not shared: its own text (sharedJson's for a plain value is JSON.stringify's).
    const json = JSON.stringify(v) as string | undefined;
    if (json === undefined) continue; // undefined, a function or a symbol: left out, as JSON.stringify does
    text += head + json;
  }
  if (pieces.length === 0) return text === "" ? "{}" : `${text}}`;
  text += "}";
  size += Buffer.byteLength(text);
  pieces.push(text);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += typeof piece === "string" ? out.write(piece, at) : piece.copy(out, at);
  return out;
}
