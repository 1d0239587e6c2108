// Bundles the page into bot/assets/activity/ (committed, shipped in the wheel): index.html and, under
// assets/, the script and style sheet with content-hashed names (Discord's proxy strips cache headers from
// HTML, so the page must name new files when they change). `--check` builds into a temporary folder and
// fails when the committed build differs from what the source builds to.
import { build } from "esbuild";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, basename } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const committed = join(here, "..", "bot", "assets", "activity");
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "farkle-activity-")) : committed;

rmSync(join(out, "assets"), { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
const result = await build({
  entryPoints: [join(here, "src", "main.ts"), join(here, "src", "style.css")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020", "chrome100", "safari15"],
  entryNames: "[name]-[hash]",
  outdir: join(out, "assets"),
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});
const built = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = built.find((name) => name.endsWith(".js"));
const style = built.find((name) => name.endsWith(".css"));
const page = readFileSync(join(here, "src", "index.html"), "utf8")
  .replace("{{script}}", `assets/${script}`)
  .replace("{{style}}", `assets/${style}`);
writeFileSync(join(out, "index.html"), page);

if (check) {
  const files = (folder) => [
    "index.html",
    ...readdirSync(join(folder, "assets"))
      .sort()
      .map((name) => `assets/${name}`),
  ];
  const expected = files(out);
  const found = files(committed);
  const differs =
    expected.join() !== found.join() ||
    expected.some((name) => !readFileSync(join(out, name)).equals(readFileSync(join(committed, name))));
  rmSync(out, { recursive: true, force: true });
  if (differs) {
    console.error("bot/assets/activity/ is not the build of activity/src: run `make activity` and commit it");
    process.exit(1);
  }
  console.log("bot/assets/activity/ matches activity/src");
}
