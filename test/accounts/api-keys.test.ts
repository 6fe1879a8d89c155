import { describe, expect, it } from "@jest/globals";
import { crc32, generateKey, hashKey, isWellFormedKey, keyHint } from "../../src/accounts/api-keys.js";

describe("API keys", () => {
  it("look like GitHub's tokens: tsk_, 30 base62 characters and a 6-character checksum", () => {
    const key = generateKey();
    expect(key).toMatch(/^tsk_[0-9A-Za-z]{36}$/);
    expect(isWellFormedKey(key)).toBe(true);
    expect(new Set(Array.from({ length: 50 }, generateKey)).size).toBe(50);
  });

  it("a scanner can tell a typo or a random string from a key without a lookup", () => {
    const key = generateKey();
    const typo = key.slice(0, 10) + (key[10] === "a" ? "b" : "a") + key.slice(11);
    expect(isWellFormedKey(typo)).toBe(false);
    expect(isWellFormedKey("tsk_" + "a".repeat(36))).toBe(false);
    expect(isWellFormedKey("ghp_" + key.slice(4))).toBe(false);
  });

  it("stores only a SHA-256, and shows a hint that cannot be used", () => {
    const key = generateKey();
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).not.toContain(key.slice(4, 20));
    expect(keyHint(key)).toHaveLength(13);
    expect(isWellFormedKey(keyHint(key))).toBe(false);
  });

  it("uses the standard CRC32", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
  });
});
