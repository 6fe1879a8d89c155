import { marksGenerated } from "./classify-path.js";

/** One file of a change, as the diff (or GitHub's file list) gives it. */
export interface ChangedFile {
  /** The file's path after the change; for a deleted file, its path before. */
  path: string;
  /** The path before a rename or copy. */
  previousPath?: string;
  status: "added" | "removed" | "modified" | "renamed" | "copied";
  /** Hunk lines starting with "+" and with "-" (never the `+++`/`---` headers). */
  additions: number;
  deletions: number;
  /** "Binary files … differ" or "GIT binary patch": a file with no lines. */
  binary: boolean;
  /** One of the file's first lines marks it generated ("Code generated … DO NOT EDIT", "@generated"). */
  markedGenerated: boolean;
}

/** A header line among a file's first ones marks it generated. */
const MARKER_LINES = 5;

interface Building extends ChangedFile {
  /** Paths from the `diff --git` line, used when no `---`/`+++`, rename or binary line names the file. */
  gitOld: string | undefined;
  gitNew: string | undefined;
  oldPath: string | null | undefined;
  newPath: string | null | undefined;
  /** A `---` or hunk was seen: a further `---`/`+++` pair starts another file. */
  hadBody: boolean;
}

function newFile(): Building {
  // Every field from the start, so every file has one shape.
  return {
    gitOld: undefined,
    gitNew: undefined,
    oldPath: undefined,
    newPath: undefined,
    path: "",
    status: "modified",
    additions: 0,
    deletions: 0,
    binary: false,
    markedGenerated: false,
    hadBody: false,
  };
}

/**
 * A C-style quoted path as git writes one ("a/\303\251 x.txt"): octal escapes are UTF-8 bytes. Returns the
 * text inside the quotes and where the quoted part ended.
 */
function unquote(text: string, from: number): { value: string; end: number } {
  const bytes: number[] = [];
  let i = from + 1;
  for (; i < text.length && text[i] !== '"'; i++) {
    const code = text.charCodeAt(i);
    if (code !== 92 /* \\ */ || i + 1 >= text.length) {
      if (code < 0x80) bytes.push(code);
      else {
        const point = text.codePointAt(i)!;
        for (const b of Buffer.from(String.fromCodePoint(point), "utf8")) bytes.push(b);
        if (point > 0xffff) i++;
      }
      continue;
    }
    const next = text[++i]!;
    if (next >= "0" && next <= "7") {
      let n = 0;
      let k = 0;
      while (k < 3 && i < text.length && text[i]! >= "0" && text[i]! <= "7") {
        n = n * 8 + (text.charCodeAt(i) - 48);
        i++;
        k++;
      }
      i--;
      bytes.push(n & 0xff);
    } else {
      const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11 };
      bytes.push(simple[next] ?? next.charCodeAt(0));
    }
  }
  return { value: Buffer.from(bytes).toString("utf8"), end: i + 1 };
}

/** A path from a `---`/`+++` line: quoted or not, a tab and what follows it (a timestamp) left off. */
function headerPath(rest: string, prefix: string): string | null {
  let path: string;
  if (rest.startsWith('"')) path = unquote(rest, 0).value;
  else {
    const tab = rest.indexOf("\t");
    path = tab >= 0 ? rest.slice(0, tab) : rest;
  }
  if (path === "/dev/null") return null;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The two paths of `diff --git a/x b/y`; unquoted paths with spaces are found when both are the same. */
function gitLinePaths(rest: string): { a?: string; b?: string } {
  if (rest.startsWith('"')) {
    const a = unquote(rest, 0);
    const after = rest.slice(a.end + 1);
    const b = after.startsWith('"') ? unquote(after, 0).value : after;
    return { a: strip(a.value, "a/"), b: strip(b, "b/") };
  }
  const quotedB = rest.indexOf(' "');
  if (quotedB > 0)
    return { a: strip(rest.slice(0, quotedB), "a/"), b: strip(unquote(rest, quotedB + 1).value, "b/") };
  // "a/P b/P": the same path twice, which is the only reading when the path holds spaces.
  const p = (rest.length - 5) / 2;
  if (Number.isInteger(p) && p > 0 && rest.startsWith("a/") && rest.slice(2 + p, 5 + p) === " b/") {
    const a = rest.slice(2, 2 + p);
    if (a === rest.slice(5 + p)) return { a, b: a };
  }
  const space = rest.indexOf(" b/");
  if (space > 0) return { a: strip(rest.slice(0, space), "a/"), b: rest.slice(space + 3) };
  return {};
}

function strip(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** "Binary files a/x and b/y differ": the two paths (either may be /dev/null). */
function binaryLinePaths(line: string): { a: string | null; b: string | null } | undefined {
  const body = line.slice("Binary files ".length, line.length - " differ".length);
  const and = body.lastIndexOf(" and ");
  if (and < 0) return undefined;
  return { a: side(body.slice(0, and), "a/"), b: side(body.slice(and + 5), "b/") };
}

function side(path: string, prefix: string): string | null {
  return path === "/dev/null" ? null : strip(path, prefix);
}

function finish(file: Building, out: ChangedFile[]): void {
  const path = file.newPath ?? file.oldPath ?? file.gitNew ?? file.gitOld;
  if (path === undefined || path === null) return;
  if (file.newPath === null && file.status === "modified") file.status = "removed";
  if (file.oldPath === null && file.status === "modified") file.status = "added";
  const previous = file.oldPath ?? file.gitOld;
  const done: ChangedFile = {
    path,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    binary: file.binary,
    markedGenerated: file.markedGenerated,
  };
  if ((file.status === "renamed" || file.status === "copied") && previous && previous !== path)
    done.previousPath = previous;
  out.push(done);
}

/** Where readNumber stopped (module state, not a closure: this runs once per hunk header). */
let cursor = 0;

/** Digits at `cursor` (at most 15 of them read as a number), or -1 where there are none. */
function readNumber(line: string): number {
  const start = cursor;
  let n = 0;
  while (cursor < line.length) {
    const c = line.charCodeAt(cursor);
    if (c < 48 || c > 57) break;
    if (cursor - start < 15) n = n * 10 + (c - 48);
    cursor++;
  }
  return cursor > start ? n : -1;
}

/** ",N" at `cursor`, or 1 where there is no comma (a hunk of one line). */
function readCount(line: string): number {
  if (line.charCodeAt(cursor) !== 44 /* , */) return 1;
  cursor++;
  return readNumber(line);
}

/** "@@ -12,7 +12,8 @@ …": the counts of old and new lines and where the new ones start (no count means 1). */
function hunkHeader(line: string): { oldLines: number; newLines: number; newStart: number } | undefined {
  cursor = 4; // after "@@ -"
  if (readNumber(line) < 0) return undefined;
  const oldLines = readCount(line);
  if (oldLines < 0 || !line.startsWith(" +", cursor)) return undefined;
  cursor += 2;
  const newStart = readNumber(line);
  if (newStart < 0) return undefined;
  const newLines = readCount(line);
  if (newLines < 0 || !line.startsWith(" @@", cursor)) return undefined;
  return { oldLines, newLines, newStart };
}

/**
 * The files of a unified diff, as `git diff` or GitHub's `.diff` writes one, or plain `diff -u` output (files
 * introduced by `---`/`+++` alone). One pass over the text: a hunk's lines are known by the counts in its
 * `@@` header, so a removed line that reads "-- x" (shown "--- x") is a deletion, not a header. Renames,
 * copies, new and deleted files, binary files, quoted paths, "\ No newline at end of file" and CRLF line ends
 * are read; anything else outside a hunk (an `index` line, a commit message above the diff) is skipped.
 */
export function parseUnifiedDiff(diff: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  scan(diff, files, undefined);
  return files;
}

/** The hunks of one file's patch (GitHub's `patch` field): whether its first lines mark it generated. */
export function patchMarksGenerated(patch: string): boolean {
  const file = newFile();
  file.newPath = "";
  scan(patch, [], file);
  return file.markedGenerated;
}

/** The file being read is done: keep it, and start the next. */
function next(file: Building | undefined, out: ChangedFile[]): Building {
  if (file) finish(file, out);
  return newFile();
}

function scan(text: string, out: ChangedFile[], only: Building | undefined): void {
  let file: Building | undefined = only;
  let oldLeft = 0;
  let newLeft = 0;
  let newLine = 0;
  let pos = 0;
  const end = text.length;

  while (pos < end) {
    let nl = text.indexOf("\n", pos);
    if (nl < 0) nl = end;
    let lineEnd = nl;
    if (lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    const first = text.charCodeAt(pos);

    if (oldLeft > 0 || newLeft > 0) {
      // Inside a hunk: + added, - removed, space (or a bare line end, as some tools leave it) context,
      // "\ No newline at end of file" nothing. Anything else ends a malformed hunk and is read as a header.
      if (first === 43 /* + */) {
        if (file) {
          file.additions++;
          if (newLine <= MARKER_LINES && !file.markedGenerated)
            file.markedGenerated = marksGenerated(text.slice(pos + 1, Math.min(lineEnd, pos + 401)));
        }
        newLeft--;
        newLine++;
        pos = nl + 1;
        continue;
      }
      if (first === 45 /* - */) {
        if (file) file.deletions++;
        oldLeft--;
        pos = nl + 1;
        continue;
      }
      if (first === 32 /* space */ || lineEnd === pos) {
        if (file && newLine <= MARKER_LINES && !file.markedGenerated && lineEnd > pos)
          file.markedGenerated = marksGenerated(text.slice(pos + 1, Math.min(lineEnd, pos + 401)));
        oldLeft--;
        newLeft--;
        newLine++;
        pos = nl + 1;
        continue;
      }
      if (first === 92 /* \ */) {
        pos = nl + 1;
        continue;
      }
      oldLeft = 0;
      newLeft = 0;
    }

    // A header line. Only its first few hundred characters are ever looked at as a prefix, except paths.
    if (first === 92 /* \ after a hunk's last line */) {
      pos = nl + 1;
      continue;
    }
    if (first === 64 /* @ */ && text.startsWith("@@ -", pos)) {
      const hunk = hunkHeader(text.slice(pos, Math.min(lineEnd, pos + 100)));
      if (hunk) {
        oldLeft = hunk.oldLines;
        newLeft = hunk.newLines;
        newLine = hunk.newStart === 0 ? 1 : hunk.newStart;
        if (file) file.hadBody = true;
      }
      pos = nl + 1;
      continue;
    }
    if (only) {
      pos = nl + 1;
      continue;
    }
    const line = text.slice(pos, lineEnd);
    pos = nl + 1;
    if (line.startsWith("diff --git ")) {
      const paths = gitLinePaths(line.slice("diff --git ".length));
      const f = (file = next(file, out));
      if (paths.a !== undefined) f.gitOld = paths.a;
      if (paths.b !== undefined) f.gitNew = paths.b;
    } else if (line.startsWith("diff --cc ") || line.startsWith("diff --combined ")) {
      // A merge's combined diff: the file counts, its @@@ hunks are not read as lines of one side.
      const f = (file = next(file, out));
      f.gitNew = line.slice(line.indexOf(" ", 5) + 1);
    } else if (line.startsWith("--- ")) {
      // A `---` line is a header only when a `+++` line follows it.
      if (!text.startsWith("+++ ", pos)) continue;
      const f = !file || file.hadBody || file.binary ? (file = next(file, out)) : file;
      f.oldPath = headerPath(line.slice(4), "a/");
      f.hadBody = true;
    } else if (line.startsWith("+++ ")) {
      if (file) file.newPath = headerPath(line.slice(4), "b/");
    } else if (!file) {
      if (line.startsWith("Binary files ") && line.endsWith(" differ")) {
        // diff -r's binary line stands alone.
        const paths = binaryLinePaths(line);
        const f = (file = next(file, out));
        f.binary = true;
        f.hadBody = true;
        if (paths) {
          f.oldPath = paths.a;
          f.newPath = paths.b;
        }
      }
    } else if (line.startsWith("rename from ")) {
      file.status = "renamed";
      file.oldPath = pathAfter(line, "rename from ");
    } else if (line.startsWith("rename to ")) {
      file.status = "renamed";
      file.newPath = pathAfter(line, "rename to ");
    } else if (line.startsWith("copy from ")) {
      file.status = "copied";
      file.oldPath = pathAfter(line, "copy from ");
    } else if (line.startsWith("copy to ")) {
      file.status = "copied";
      file.newPath = pathAfter(line, "copy to ");
    } else if (line.startsWith("new file mode")) {
      file.status = "added";
      file.oldPath = null;
    } else if (line.startsWith("deleted file mode")) {
      file.status = "removed";
      file.newPath = null;
    } else if (line.startsWith("GIT binary patch")) {
      file.binary = true;
    } else if (line.startsWith("Binary files ") && line.endsWith(" differ")) {
      const paths = binaryLinePaths(line);
      const f = file.hadBody || file.binary ? (file = next(file, out)) : file;
      f.binary = true;
      f.hadBody = true;
      if (paths && f.gitNew === undefined) {
        f.oldPath = paths.a;
        f.newPath = paths.b;
      }
    }
  }
  if (file && file !== only) finish(file, out);
}

function pathAfter(line: string, prefix: string): string {
  const rest = line.slice(prefix.length);
  return rest.startsWith('"') ? unquote(rest, 0).value : rest;
}
