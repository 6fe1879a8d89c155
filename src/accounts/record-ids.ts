import { randomFillSync } from "node:crypto";

/** Random bytes drawn 4 KB at a time (one call into the system's generator per 455 ids, not one per id). */
const pool = Buffer.alloc(4096);
let used = pool.length;

function random9(): Buffer {
  if (used + 9 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 9;
  return pool.subarray(used - 9, used);
}

/** A record's id: its kind as a prefix (acct_, key_, rpt_), then 72 random bits. */
export const newId = (prefix: string) => `${prefix}_${random9().toString("base64url")}`;
