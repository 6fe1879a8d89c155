// Test helper: opens a PGlite data folder in its own process and holds it until killed.
import { openDatabase } from "../../src/storage/database.js";

await openDatabase({ dataDir: process.argv[2]! });
console.log("holding");
setInterval(() => {}, 1000);
