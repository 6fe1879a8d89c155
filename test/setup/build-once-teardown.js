// jest globalTeardown: removes this run's build (test/setup/build-once.js).
import { rmSync } from "node:fs";
import { BUILD_ENV } from "./build-once.js";

export default async function removeBuild() {
  const out = process.env[BUILD_ENV];
  if (out && out.endsWith(`-${process.pid}`)) rmSync(out, { recursive: true, force: true });
}
