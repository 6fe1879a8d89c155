import { isIP } from "node:net";
import type { ApprovalPolicy } from "../core/approval.js";
import { ConfigError } from "../core/errors.js";
import { appConfigFromEnv, type AppConfig } from "./app-env.schema.js";
import { parseAuthEnv, type AuthConfig } from "./auth-env.schema.js";
import { parseFleetEnv, type FleetConfig } from "./fleet-env.schema.js";
import { parseKeysEnv, type KeysConfig } from "./keys-env.schema.js";
import { scorerSettingsFromEnv, type ScorerSettings } from "./llm-env.schema.js";
import { approvalPolicyFromEnv, parseServerEnv, type ServerConfig } from "./server-env.schema.js";
import { parseStorageEnv, type StorageConfig } from "./storage-env.schema.js";

/**
 * The whole service's configuration, read from the environment once at start. Each part of the service
 * receives only its own section; every variable belongs to exactly one section (docs/configuration.md).
 */
export interface ServiceConfig {
  server: ServerConfig;
  approval: ApprovalPolicy;
  app: AppConfig;
  storage: StorageConfig;
  fleet: FleetConfig;
  keys: KeysConfig;
  llm: ScorerSettings;
  /** "Sign in with GitHub" for private repositories' backlogs. */
  auth: AuthConfig;
}

/**
 * Parse every section, then the rules that span sections. Throws a ConfigError naming the variable;
 * `npm start` prints it and exits 1 before listening.
 */
export function loadServiceConfig(env: Record<string, string | undefined>): ServiceConfig {
  const config: ServiceConfig = {
    server: parseServerEnv(env),
    approval: approvalPolicyFromEnv(env),
    app: appConfigFromEnv(env),
    storage: parseStorageEnv(env),
    fleet: parseFleetEnv(env),
    keys: parseKeysEnv(env),
    llm: scorerSettingsFromEnv(env),
    auth: parseAuthEnv(env),
  };
  if (config.fleet.redisUrl && !config.storage.databaseUrl)
    throw new ConfigError(
      "REDIS_URL is set without DATABASE_URL: a fleet shares its delivery records and usage in PostgreSQL. Set DATABASE_URL too.",
    );
  if (config.app.registration === "on" && !isLoopbackHost(config.server.host) && !config.server.publicUrl)
    throw new ConfigError(
      "REGISTRATION=on on a non-loopback HOST needs PUBLIC_URL (the address GitHub and browsers use to reach this server).",
    );
  return config;
}

/** Whether this configuration needs a database at all (the open default needs none). */
export function needsDatabase(config: Pick<ServiceConfig, "storage" | "keys">): boolean {
  return config.keys.auth === "keys" || config.storage.databaseUrl !== undefined || config.storage.dataDirSet;
}

/** Whether the server listens on loopback only, where no stranger can reach it. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || (isIP(h) === 4 && h.startsWith("127."));
}
