import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * A bench entry compiled to plain JavaScript in .bench/, as `npm start` runs the server (no TypeScript loader
 * in the measured process: its memory and start-up work would be measured too).
 */
export async function compileForNode(entry: URL, outName: string): Promise<string> {
  const outfile = fileURLToPath(new URL(`../.bench/${outName}`, import.meta.url));
  await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}
