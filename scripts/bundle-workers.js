// Bundles the two worker entry points of the build into one file each
// (dist/bundle/analyze-worker.js, dist/bundle/part-worker.js; the part worker's
// code itself in dist/bundle/part-worker.cjs, src/part-worker-entry.ts), run by
// `npm run build` after tsc. A worker loads one file instead of the build's
// hundred-odd modules: a part thread starts in about a fifth of the time
// (docs/performance.md, session 7), and every large module starts up to
// twelve of them. src/analyze.ts and src/checks/parallel.ts use the bundles
// when they exist and the modules otherwise (as when running from sources).
import { build } from 'esbuild';

await build({
  entryPoints: { 'analyze-worker': 'dist/analyze-worker.js', 'part-worker': 'dist/part-worker-entry.js' },
  outdir: 'dist/bundle',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies call `require`, which an ES module lacks.
  banner: { js: "import { createRequire as __ptxDebugRequire } from 'node:module'; const require = __ptxDebugRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The part worker's code as CommonJS, which its entry (part-worker.js above, src/part-worker-entry.ts) runs
// from V8's code cache when one has been made: a part thread then compiles none of it again.
await build({
  entryPoints: { 'part-worker': 'dist/part-worker.js' },
  outdir: 'dist/bundle',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
