import * as nodeCrypto from "node:crypto";
import { randomInt } from "node:crypto";

/**
 * API keys in GitHub's token shape: a type prefix, 30 random base62 characters (about 178 bits) and a
 * 6-character base62 CRC32 of the rest, so a secret scanner can recognise a key, and a typo is refused,
 * without a database lookup. Only a SHA-256 of the key is stored: a random 178-bit secret needs no slow hash.
 */
export const KEY_PREFIX = "tsk_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_RE = /^tsk_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(text: string): number {
  let c = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function base62(n: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateKey(): string {
  let random = "";
  for (let i = 0; i < 30; i++) random += BASE62[randomInt(62)];
  return `${KEY_PREFIX}${random}${base62(crc32(KEY_PREFIX + random), 6)}`;
}

/** The key's shape and checksum are right (it may still be unknown, expired or revoked). */
export function isWellFormedKey(key: string): boolean {
  const m = KEY_RE.exec(key);
  return m !== null && base62(crc32(KEY_PREFIX + m[1]!), 6) === m[2];
}

/** SHA-256 in hex: Node's one-shot `crypto.hash` where it exists (20.12 and later; no Hash object per call). */
export const sha256Hex: (text: string) => string =
  typeof nodeCrypto.hash === "function"
    ? (text) => nodeCrypto.hash("sha256", text, "hex")
    : (text) => nodeCrypto.createHash("sha256").update(text).digest("hex");

export function hashKey(key: string): string {
  return sha256Hex(key);
}

/** Enough of a key to tell keys apart in a listing, never enough to use it. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}

export const SCOPES = ["score", "usage:read", "reports:read"] as const;
export type Scope = (typeof SCOPES)[number];
export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
