import { describe, expect, it } from "@jest/globals";
import { KeyCache } from "../../src/accounts/key-cache.js";

const ids = { keyId: "key_1", accountId: "acct_1" };

function listening(): KeyCache<string> {
  const cache = new KeyCache<string>();
  cache.handlers.onReset(true);
  return cache;
}

describe("the cache of verified keys", () => {
  it("keeps nothing until its change notices are being received", () => {
    const cache = new KeyCache<string>();
    cache.set("h", "row", ids, cache.ticket());
    expect(cache.get("h")).toBeUndefined();
    cache.handlers.onReset(true);
    cache.set("h", "row", ids, cache.ticket());
    expect(cache.get("h")).toBe("row");
  });

  it("drops a key when a notice names it, or its account, and everything on an unreadable notice", () => {
    const cache = listening();
    cache.set("h1", "a", ids, cache.ticket());
    cache.set("h2", "b", { keyId: "key_2", accountId: "acct_1" }, cache.ticket());
    cache.set("h3", "c", { keyId: "key_3", accountId: "acct_2" }, cache.ticket());
    cache.handlers.onNotice(JSON.stringify({ key: "key_1" }));
    expect([cache.get("h1"), cache.get("h2"), cache.get("h3")]).toEqual([undefined, "b", "c"]);
    cache.handlers.onNotice(JSON.stringify({ account: "acct_1" }));
    expect([cache.get("h2"), cache.get("h3")]).toEqual([undefined, "c"]);
    cache.handlers.onNotice("not json");
    expect(cache.size).toBe(0);
  });

  it("never keeps a row read before a change was announced (the read raced the revocation)", () => {
    const cache = listening();
    const ticket = cache.ticket(); // the request starts reading the key
    cache.handlers.onNotice(JSON.stringify({ key: "key_1" })); // meanwhile the key is revoked
    cache.set("h", "stale row", ids, ticket);
    expect(cache.get("h")).toBeUndefined();
  });

  it("forgets everything when the listener drops, and caches nothing until it is back", () => {
    const cache = listening();
    cache.set("h", "row", ids, cache.ticket());
    cache.handlers.onReset(false);
    expect(cache.get("h")).toBeUndefined();
    cache.set("h", "row", ids, cache.ticket());
    expect(cache.get("h")).toBeUndefined();
    cache.handlers.onReset(true);
    cache.set("h", "row", ids, cache.ticket());
    expect(cache.get("h")).toBe("row");
  });

  it("trusts a row for a bounded time and holds a bounded number of keys", () => {
    let now = 0;
    const cache = new KeyCache<string>({ maxAgeMs: 1000, maxEntries: 2, now: () => now });
    cache.handlers.onReset(true);
    cache.set("a", "1", ids, cache.ticket());
    cache.set("b", "2", ids, cache.ticket());
    cache.set("c", "3", ids, cache.ticket());
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, "2", "3"]);
    now = 1001;
    expect(cache.get("b")).toBeUndefined();
  });
});
