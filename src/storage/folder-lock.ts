import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { StorageError } from "./storage-error.js";

/** Folders this process holds: a second open in the same process is refused too. */
const lockedHere = new Set<string>();

/**
 * PGlite takes no lock on its folder, and two processes writing to one folder lose rows silently
 * (measured). So: an exclusive lock file holding our host and pid; a live holder stops the start.
 * Returns the function that lets the folder go.
 */
export function lockFolder(dir: string): () => void {
  const path = join(dir, ".task-scorer.lock");
  if (lockedHere.has(dir))
    throw new StorageError(
      `The data folder ${dir} is already open in this process; open it once and share it.`,
    );
  // Host and pid: in containers every process is pid 1, so a pid alone cannot tell two of them apart.
  const me = `${hostname()} ${process.pid}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, me);
      closeSync(fd);
      lockedHere.add(dir);
      return () => {
        lockedHere.delete(dir);
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const [host = "", pidText = ""] = readFileSync(path, "utf8").trim().split(" ");
      const holder = Number(pidText);
      // On this host, a lock whose process is gone (or is us, restarted) is taken over; another host's
      // lock cannot be checked, so it is respected.
      const held = host !== hostname() ? true : holder !== process.pid && isAlive(holder);
      if (held)
        throw new StorageError(
          `The data folder ${dir} is in use by another task-scorer process (pid ${holder}${host !== hostname() ? ` on ${host}` : ""}). ` +
            "Stop it, or give this one its own DATA_DIR; to run several instances, use DATABASE_URL (PostgreSQL). " +
            `If that process is gone, delete ${path}.`,
        );
      unlinkSync(path); // left by a process that died: take it over
    }
  }
  throw new StorageError(`Could not lock the data folder ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
