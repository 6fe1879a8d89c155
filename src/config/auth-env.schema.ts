import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { blank, parseSection } from "./env-parsing.js";

/**
 * The sign-in section: "Sign in with GitHub" for private repositories' boards, with the App's own OAuth
 * client (its settings page shows the client ID and generates client secrets; registering the App from the
 * start page writes both). The session cookie is signed and its GitHub token encrypted with SESSION_SECRET.
 */
export const AuthEnvSchema = z.object({
  GITHUB_CLIENT_ID: z.preprocess(blank, z.string().trim().optional()),
  GITHUB_CLIENT_SECRET: z.preprocess(blank, z.string().trim().optional()),
  SESSION_SECRET: z.preprocess(blank, z.string().optional()),
  /**
   * The callback URL GitHub knows for the App (registering from the start page writes the one it registered):
   * sign-in's redirect_uri, whatever name the visitor used. PUBLIC_URL, when set, comes first.
   */
  GITHUB_CALLBACK_URL: z.preprocess(
    blank,
    z
      .url({
        protocol: /^https?$/,
        error: "expected a URL such as http://localhost:3000/auth/github/callback",
      })
      .transform((v) => v.replace(/\/+$/, ""))
      .refine((v) => new URL(v).pathname === "/auth/github/callback" && !new URL(v).search, {
        error: "expected this server's callback, a URL ending in /auth/github/callback",
      })
      .optional(),
  ),
});

export interface SignInSettings {
  clientId: string;
  clientSecret: string;
  sessionSecret: string;
  /** GITHUB_CALLBACK_URL, when set. */
  callbackUrl?: string | undefined;
}

export interface AuthConfig {
  /** Undefined when sign-in is not configured: private repositories' backlogs are then not shown to anyone. */
  signIn: SignInSettings | undefined;
}

export const MIN_SESSION_SECRET_LENGTH = 32;
const MAKE_ONE =
  "Make one with `openssl rand -base64 32` (or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`), set SESSION_SECRET to it and start again.";

/** Words that mark a value someone typed or copied from an example rather than generated. */
const PLACEHOLDERS =
  /change[-_ ]?me|changeit|password|passw0rd|secret|example|replace[-_ ]?me|placeholder|default|your[-_ ]|qwerty|letmein|123456|abcdef/i;

/**
 * Why a SESSION_SECRET is too weak to sign sessions, or undefined when it will do. The value itself is
 * never part of the answer (it ends up in an error message, and a start log).
 */
export function sessionSecretProblem(value: string): string | undefined {
  if (value.length < MIN_SESSION_SECRET_LENGTH)
    return `is ${value.length} characters long; it needs at least ${MIN_SESSION_SECRET_LENGTH} random characters`;
  if (new Set(value).size < 10) return "repeats too few different characters to be random";
  if (PLACEHOLDERS.test(value)) return "looks like a placeholder or a typed word, not a random value";
  for (let unit = 1; unit <= value.length / 2; unit++) {
    if (value.length % unit === 0 && value.slice(0, unit).repeat(value.length / unit) === value)
      return "is one short piece repeated, not a random value";
  }
  let steps = 0;
  for (let i = 1; i < value.length; i++) {
    if (Math.abs(value.charCodeAt(i) - value.charCodeAt(i - 1)) <= 1) steps++;
  }
  if (steps >= (value.length - 1) / 2) return "runs through the alphabet or the digits, not a random value";
  return undefined;
}

export function parseAuthEnv(env: Record<string, string | undefined>): AuthConfig {
  const e = parseSection(AuthEnvSchema, env, "sign-in environment");
  const id = e.GITHUB_CLIENT_ID;
  const secret = e.GITHUB_CLIENT_SECRET;
  if (!id && !secret) return { signIn: undefined };
  if (!id || !secret) {
    const missing = id ? "GITHUB_CLIENT_SECRET" : "GITHUB_CLIENT_ID";
    throw new ConfigError(
      `Sign in with GitHub needs both GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET (the App's client ID and a client secret, from the App's settings page on GitHub); ${missing} is missing. Set it, or unset both to turn sign-in off.`,
    );
  }
  const session = e.SESSION_SECRET;
  if (!session)
    throw new ConfigError(
      `SESSION_SECRET is required once sign-in is configured (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are set): it signs the session cookies and encrypts the GitHub tokens in them. ${MAKE_ONE}`,
    );
  const problem = sessionSecretProblem(session);
  if (problem)
    throw new ConfigError(
      `SESSION_SECRET is too weak: it ${problem}. Anyone who guesses it can sign in as anyone. ${MAKE_ONE}`,
    );
  return {
    signIn: {
      clientId: id,
      clientSecret: secret,
      sessionSecret: session,
      ...(e.GITHUB_CALLBACK_URL ? { callbackUrl: e.GITHUB_CALLBACK_URL } : {}),
    },
  };
}
