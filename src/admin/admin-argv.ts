/**
 * The admin CLI's command line, read the same way by the CLI (admin-commands.ts) and by the running server's
 * channel (admin-channel.ts), which logs a command's name and nothing else of it.
 */
import { parseArgs } from "node:util";

/** The options and words of an admin command line; throws node:util's error on an unknown option. */
export function parseAdminArgv(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: "string" },
      plan: { type: "string" },
      github: { type: "string" },
      scopes: { type: "string" },
      "expires-days": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** The commands that take a second word ("keys create"); the others are one word and the rest is arguments. */
const TWO_WORD_COMMANDS = new Set([
  "accounts create",
  "accounts list",
  "accounts plan",
  "keys create",
  "keys list",
  "keys revoke",
]);
const ONE_WORD_COMMANDS = new Set(["usage", "learn", "backlog"]);

/**
 * What a log may say of a command line: its name ("keys create", "usage"), never an argument (an account's id, a
 * repository, a mistyped word that may be a key pasted in the wrong place): "unknown" for anything else.
 */
export function commandName(argv: readonly string[]): string {
  let positionals: string[];
  try {
    positionals = parseAdminArgv(argv).positionals;
  } catch {
    return "unknown";
  }
  const [group = "", action = ""] = positionals;
  if (!group) return "help";
  if (ONE_WORD_COMMANDS.has(group)) return group;
  const two = `${group} ${action}`;
  return TWO_WORD_COMMANDS.has(two) ? two : "unknown";
}
