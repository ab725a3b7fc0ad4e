// Bundles the two worker entry points of the build into one file each
// (dist/bundle/analyze-worker.js, dist/bundle/part-worker.js), run by
// `npm run build` after tsc. A worker loads one file instead of the build's
// hundred-odd modules: a part thread starts in about a fifth of the time
// (docs/performance.md, session 7), and every large module starts up to
// twelve of them. src/analyze.ts and src/checks/parallel.ts use the bundles
// when they exist and the modules otherwise (as when running from sources).
import { build } from 'esbuild';

await build({
  entryPoints: { 'analyze-worker': 'dist/analyze-worker.js', 'part-worker': 'dist/part-worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies call `require`, which an ES module lacks.
  banner: { js: "import { createRequire as __ptxDebugRequire } from 'node:module'; const require = __ptxDebugRequire(import.meta.url);" },
  logLevel: 'warning',
});
