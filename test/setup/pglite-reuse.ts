/**
 * `@electric-sql/pglite` as the tests see it (test/setup/per-file.ts mocks the package with this): the same module,
 * except that an in-memory PGlite is opened once per test file and emptied between uses. Starting one (the WASM
 * instance, then the seed's data folder) costs about a second of CPU, and 21 files open one per test or per
 * service. Here `close()` on an in-memory instance empties it instead (every session setting dropped with
 * DISCARD ALL, the public schema dropped and made again) and keeps it; the next `new PGlite()` of the same kind
 * in the same file gets it back, and the migrations run on it again as on a new database. Data folders on disk,
 * and anything but the plain in-memory kind, are left to PGlite as they are. The kept instances are closed for
 * real after the file.
 */
import type * as Pglite from "@electric-sql/pglite";

type Module = typeof Pglite;
type Options = Pglite.PGliteOptions;
type Instance = Pglite.PGlite;

interface Kept {
  pg: Instance;
  kind: string;
  /** The emptying, started at close(); rejects if it failed. */
  emptied: Promise<void>;
}

const kept: Kept[] = [];
const counts = { opened: 0, reused: 0 };
let fileDone = false;

/** Which in-memory instances are interchangeable; undefined for the ones never kept. */
function kindOf(dataDir: string | undefined, options: Options): string | undefined {
  if (dataDir !== undefined && !dataDir.startsWith("memory://")) return undefined;
  const { postgresqlconf, loadDataDir, extensions, ...rest } = options as Options & {
    postgresqlconf?: string;
  };
  const others = Object.keys(rest).filter((k) => k !== "dataDir");
  if (others.length > 0) return undefined;
  return JSON.stringify({
    conf: postgresqlconf ?? null,
    // Every seeded start in this repository loads the same archive (assets/pglite-seed.tar.gz).
    seeded: loadDataDir !== undefined,
    extensions: Object.keys(extensions ?? {}).sort(),
  });
}

async function empty(pg: Instance): Promise<void> {
  await pg.exec("ROLLBACK").catch(() => undefined);
  await pg.exec("DISCARD ALL");
  await pg.exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public; GRANT ALL ON SCHEMA public TO public;");
}

function keepOnClose(pg: Instance, kind: string): void {
  const closeForReal = pg.close.bind(pg);
  let parked = false;
  Object.defineProperty(pg, "close", {
    configurable: true,
    writable: true,
    value: async () => {
      if (parked) return;
      if (fileDone) return closeForReal();
      parked = true;
      const emptied = empty(pg);
      kept.push({ pg, kind, emptied });
      // Surfaces at the next open (waitReady), where the test can report it.
      emptied.catch(() => undefined);
    },
  });
  Object.defineProperty(pg, "reopened", {
    configurable: true,
    value: () => (parked = false),
  });
  Object.defineProperty(pg, "closeForReal", { configurable: true, value: closeForReal });
}

function takeKept(kind: string): Instance | undefined {
  const at = kept.findIndex((k) => k.kind === kind);
  if (at < 0) return undefined;
  const [{ pg, emptied }] = kept.splice(at, 1) as [Kept];
  (pg as Instance & { reopened: () => void }).reopened();
  Object.defineProperty(pg, "waitReady", { configurable: true, writable: true, value: emptied });
  return pg;
}

/** The package's exports, with PGlite's constructor reusing in-memory instances. */
export function reusingPglite(real: Module): Module {
  const PGlite = new Proxy(real.PGlite, {
    construct(target, args: unknown[], newTarget) {
      const [first, second] = args as [string | Options | undefined, Options | undefined];
      const [dataDir, options] =
        typeof first === "object" && first !== null
          ? [first.dataDir, first]
          : [first as string | undefined, second ?? {}];
      const kind = kindOf(dataDir, options);
      if (kind === undefined || fileDone) return Reflect.construct(target, args, newTarget) as object;
      const reused = takeKept(kind);
      if (reused) {
        counts.reused++;
        return reused;
      }
      counts.opened++;
      const pg = Reflect.construct(target, args, newTarget) as Instance;
      keepOnClose(pg, kind);
      return pg;
    },
  });
  return { ...real, PGlite };
}

/** Close the kept instances for real; an instance closed after this closes at once. */
export async function closeKeptPglites(): Promise<void> {
  fileDone = true;
  if (process.env.DEBUG_PGLITE_REUSE)
    console.log(`in-memory PGlite: ${counts.opened} opened, ${counts.reused} reused`);
  const all = kept.splice(0);
  await Promise.all(
    all.map(async ({ pg, emptied }) => {
      await emptied.catch(() => undefined);
      await (pg as Instance & { closeForReal: () => Promise<void> }).closeForReal();
    }),
  );
}
