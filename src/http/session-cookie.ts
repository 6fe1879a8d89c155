import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import type { FastifyRequest } from "fastify";

/**
 * The signed-in GitHub user, kept in a cookie rather than on the server, so that any instance of a fleet
 * reads it: `v1.<payload>.<signature>`, where the payload is base64url JSON (login, user id, expiry and the
 * user-to-server token, encrypted) and the signature HMAC-SHA256 over the purpose and the payload. The token
 * is encrypted (AES-256-GCM) because a cookie is readable wherever its holder's browser shows it (extensions,
 * devtools, a proxy's log); both keys are derived from SESSION_SECRET (HKDF-SHA256). Neither the token nor the
 * cookie is ever logged.
 */

export const SESSION_COOKIE = "task_scorer_session";
export const STATE_COOKIE = "task_scorer_oauth_state";
/** GitHub's user-to-server tokens expire after 8 hours; the session ends with its token. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
/** Time to authorize on GitHub and come back. */
export const STATE_TTL_SECONDS = 10 * 60;

export interface UserSession {
  login: string;
  id: number;
  /** This sign-in's own id (random), so that signing out ends this session and no other. */
  sessionId?: string | undefined;
  /** The user-to-server token, in memory only once the cookie is opened. */
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface SignInState {
  state: string;
  returnTo: string;
}

type Purpose = "session" | "state";
const VERSION = "v1";
/** Revoked tokens remembered (by fingerprint) so that their cookies are ignored even if a client keeps them. */
const MAX_REVOKED = 10_000;
/** OAuth states already presented to the callback, kept until they would have expired anyway. */
const MAX_USED_STATES = 50_000;

/**
 * Keys remembered until a time of their own, at most `max` of them: once full, the expired go first, then the
 * oldest. In this process's memory: see `SessionCookies` for what that means for a fleet.
 */
class ExpiringSet {
  private readonly until = new Map<string, number>();
  constructor(private readonly max: number) {}

  has(key: string, now: number): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until < now) {
      this.until.delete(key);
      return false;
    }
    return true;
  }

  add(key: string, until: number, now: number): void {
    if (this.until.size >= this.max) {
      for (const [k, u] of this.until) if (u < now) this.until.delete(k);
      for (const k of this.until.keys()) {
        if (this.until.size < this.max) break;
        this.until.delete(k);
      }
    }
    this.until.delete(key);
    this.until.set(key, until);
  }
}

/**
 * Sealing and opening the cookies, and what the server remembers about them: tokens GitHub refused and
 * sessions signed out (until they would have expired anyway), and OAuth states already used. Those lists are
 * in this process's memory: on a fleet, a sign-out or a used state is known to the instance that saw it (and
 * is forgotten by a restart), so a cookie replayed to another instance is accepted there until it expires.
 */
export class SessionCookies {
  private readonly macKey: Buffer;
  private readonly encKey: Buffer;
  /**
   * Fingerprints of tokens GitHub answered 401 to (`t:`) and ids of sessions signed out (`s:`), each with
   * when the cookie would have expired anyway.
   */
  private readonly revoked = new ExpiringSet(MAX_REVOKED);
  /** OAuth states already presented to the callback: a state is good for one sign-in. */
  private readonly usedStates = new ExpiringSet(MAX_USED_STATES);
  /** Requests whose session turned out revoked: their answer clears the cookie. */
  private readonly forgotten = new WeakSet<FastifyRequest>();

  constructor(
    secret: string,
    private readonly options: { now?: () => number } = {},
  ) {
    const ikm = Buffer.from(secret, "utf8");
    this.macKey = Buffer.from(hkdfSync("sha256", ikm, "task-scorer", "session cookie signature", 32));
    this.encKey = Buffer.from(hkdfSync("sha256", ikm, "task-scorer", "session cookie token encryption", 32));
  }

  private nowSeconds(): number {
    return Math.floor((this.options.now?.() ?? Date.now()) / 1000);
  }

  /** A cookie value for this user, valid for `ttlSeconds` (at most 8 hours). */
  sealSession(user: { login: string; id: number; token: string }, ttlSeconds = SESSION_TTL_SECONDS): string {
    const e = this.nowSeconds() + Math.max(1, Math.min(ttlSeconds, SESSION_TTL_SECONDS));
    const i = randomBytes(16).toString("base64url");
    return this.sign("session", { l: user.login, u: user.id, i, t: this.encrypt(user.token, user.id), e });
  }

  /** The session in a cookie value, or undefined when it is absent, tampered with, expired or revoked. */
  openSession(value: string | undefined): UserSession | undefined {
    const p = this.verify("session", value);
    if (!p || typeof p.l !== "string" || typeof p.u !== "number" || typeof p.t !== "string") return undefined;
    const now = this.nowSeconds();
    const sessionId = typeof p.i === "string" ? p.i : undefined;
    if (sessionId !== undefined && this.revoked.has(`s:${sessionId}`, now)) return undefined;
    const token = this.decrypt(p.t, p.u);
    if (token === undefined || this.revoked.has(`t:${fingerprint(token)}`, now)) return undefined;
    return { login: p.l, id: p.u, sessionId, token, expiresAt: p.e as number };
  }

  /**
   * Signing out: this session is refused from now on, even if a client keeps (or someone copied) its cookie,
   * until it would have expired anyway. Other sessions of the same user are not affected.
   */
  endSession(request: FastifyRequest): void {
    const session = this.sessionOf(request);
    if (!session) return;
    const now = this.nowSeconds();
    // A cookie sealed before sessions had ids is ended through its token, which only that sign-in holds.
    const key =
      session.sessionId !== undefined ? `s:${session.sessionId}` : `t:${fingerprint(session.token)}`;
    this.revoked.add(key, session.expiresAt, now);
  }

  /**
   * Whether this OAuth state may finish a sign-in: true the first time it is presented, false after (one
   * login's state cannot be used with a second code, whatever became of the first).
   */
  useState(state: string): boolean {
    const now = this.nowSeconds();
    if (this.usedStates.has(state, now)) return false;
    this.usedStates.add(state, now + STATE_TTL_SECONDS, now);
    return true;
  }

  sealState(state: SignInState): string {
    return this.sign("state", {
      s: state.state,
      r: state.returnTo,
      e: this.nowSeconds() + STATE_TTL_SECONDS,
    });
  }

  openState(value: string | undefined): SignInState | undefined {
    const p = this.verify("state", value);
    if (!p || typeof p.s !== "string" || typeof p.r !== "string") return undefined;
    return { state: p.s, returnTo: p.r };
  }

  /** The request's session, read from its cookie. */
  sessionOf(request: FastifyRequest): UserSession | undefined {
    if (this.forgotten.has(request)) return undefined;
    return this.openSession(readCookie(request, SESSION_COOKIE));
  }

  /**
   * GitHub refused the session's token (revoked, or expired early): the token is ignored from now on, and
   * this request's answer clears the cookie (see `clearForgotten`).
   */
  forget(request: FastifyRequest, session?: { token: string; expiresAt?: number }): void {
    this.forgotten.add(request);
    if (!session) return;
    const now = this.nowSeconds();
    this.revoked.add(`t:${fingerprint(session.token)}`, session.expiresAt ?? now + SESSION_TTL_SECONDS, now);
  }

  /** Whether this request's answer should clear the session cookie. */
  wasForgotten(request: FastifyRequest): boolean {
    return this.forgotten.has(request);
  }

  private sign(purpose: Purpose, payload: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
    return `${VERSION}.${body}.${this.mac(purpose, body)}`;
  }

  private verify(purpose: Purpose, value: string | undefined): Record<string, unknown> | undefined {
    if (typeof value !== "string" || value.length > 4096) return undefined;
    const parts = value.split(".");
    if (parts.length !== 3 || parts[0] !== VERSION) return undefined;
    const [, body, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.mac(purpose, body), "base64url");
    const given = Buffer.from(signature, "base64url");
    // Constant time: the comparison does not tell how many bytes of a forged signature were right.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    } catch {
      return undefined;
    }
    if (!payload || typeof payload !== "object") return undefined;
    const p = payload as Record<string, unknown>;
    if (typeof p.e !== "number" || p.e <= this.nowSeconds()) return undefined;
    return p;
  }

  private mac(purpose: Purpose, body: string): string {
    return createHmac("sha256", this.macKey).update(`${purpose}.${body}`).digest("base64url");
  }

  /** AES-256-GCM, a fresh 12-byte IV each time, the user id as associated data: iv.ciphertext.tag, base64url. */
  private encrypt(token: string, userId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.encKey, iv);
    cipher.setAAD(Buffer.from(String(userId)));
    const ct = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
    return Buffer.concat([iv, ct, cipher.getAuthTag()]).toString("base64url");
  }

  private decrypt(sealed: string, userId: number): string | undefined {
    const raw = Buffer.from(sealed, "base64url");
    if (raw.length < 12 + 16 + 1) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.encKey, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(String(userId)));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      return undefined;
    }
  }
}

/** A short, one-way name for a token (cache keys, the revoked list); never the token itself. */
export function fingerprint(token: string): string {
  return createHash("sha256").update(token).digest("base64url").slice(0, 22);
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  path?: string;
}

/** A Set-Cookie value: HttpOnly and SameSite=Lax always, Secure over https. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${options.path ?? "/"}`,
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearCookie(name: string, options: { secure: boolean; path?: string }): string {
  return serializeCookie(name, "", { ...options, maxAgeSeconds: 0 });
}
