import { randomBytes } from "node:crypto";

/** A record's id: its kind as a prefix (acct_, key_, rpt_), then 72 random bits. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString("base64url")}`;
