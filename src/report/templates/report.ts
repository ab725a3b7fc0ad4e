// The HTML report's handlebars templates, kept as TypeScript strings so they
// ship in the build with the code. `{{x}}` escapes; the only triple-stash
// values are markup built by the report itself (Graphviz SVG, the gauge, the
// docs rendered from escaped markdown), never raw input.

/** The page: header, the summary of several files, one section per file. */
export const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ptx-debug {{version}}">
<title>{{title}}</title>
<style>{{{style}}}</style>
</head>
<body>
<header class="page">
  <h1>ptx-debug report</h1>
  <span class="meta">{{fileCount}} file(s) · {{builtCount}} of 100 checks built · ptx-debug {{version}}</span>
</header>
<main>
{{#if multiple}}
<div class="card files-summary">
  <h2>{{fileCount}} files: lowest score {{lowestScore}}, mean {{meanScore}}, exit {{exitCode}}</h2>
  <table>
    <thead><tr><th>file</th><th>score</th><th>band</th><th>findings</th><th>exit</th></tr></thead>
    <tbody>
    {{#each files}}
      <tr><td><a href="#{{anchor}}">{{#if label}}{{label}}{{else}}{{file}}{{/if}}</a></td><td class="num">{{#if analyzed}}{{score}}{{else}}–{{/if}}</td><td><span class="band band-{{band}}">{{bandLabel}}</span></td><td class="num">{{findingCount}}</td><td class="num">{{exitCode}}</td></tr>
    {{/each}}
    </tbody>
  </table>
</div>
{{/if}}
{{#each files}}{{> file}}{{/each}}
</main>
<script>{{{script}}}</script>
</body>
</html>
`;

/** One file: verdict and scorecard beside the findings, CFGs and source. */
export const FILE = `<section class="file" id="{{anchor}}">
<h2>{{#if label}}{{label}} <span class="muted">{{file}}</span>{{else}}{{file}}{{/if}}</h2>
{{#if analyzed}}
<div class="layout">
  <div class="main">
    <div class="card verdict">
      <div class="gauge">{{{gauge}}}</div>
      <div>
        <div><span class="band band-{{band}}">{{bandLabel}}</span> <span class="muted">score {{score}} · {{points}} points</span></div>
        <p class="exit-reason">{{exitReason}}</p>
        <div class="muted">{{findingCount}} finding(s){{#if suppressedCount}}, {{suppressedCount}} suppressed{{/if}} · {{functionCount}} function(s){{#if scoreNote}} · {{scoreNote}}{{/if}}</div>
      </div>
    </div>
    <h3>Findings</h3>
    {{#each findings}}{{> finding}}{{else}}<div class="card muted">No findings.</div>{{/each}}
    <h3>Control-flow graphs</h3>
    {{#if graphs.length}}
    <div class="cfgs">
    {{#each graphs}}
      <figure class="cfg">
        <figcaption><b>{{name}}</b> {{kind}} · {{blocks}} block(s){{#if hitBlocks}} · {{hitBlocks}} with findings{{/if}}</figcaption>
        {{#if svg}}{{{svg}}}{{else}}<div class="muted">{{note}}</div>{{/if}}
      </figure>
    {{/each}}
    </div>
    {{else}}<div class="card muted">No function with a body.</div>{{/if}}
    <h3>Source{{#if compiledFromCuda}} <span class="muted">(the PTX nvcc generated from {{file}})</span>{{/if}}</h3>
    <div class="card listing">
      <table class="src"><tbody>
      {{#each listing}}<tr id="{{anchor}}" class="{{cls}}"><td class="n"><a href="#{{anchor}}">{{n}}</a></td><td class="marks">{{#each marks}}<a class="mark sev-{{severity}}" href="#{{target}}" title="{{title}}">{{id}}</a>{{/each}}</td><td class="code">{{text}}</td></tr>
      {{/each}}
      </tbody></table>
    </div>
  </div>
  <aside>
    <div class="card scorecard" id="{{anchor}}-scorecard">
      <h3 class="first">Scorecard</h3>
      <div class="toolbar"><label><input type="checkbox" data-only-failing="{{anchor}}-scorecard"> failing checks only</label></div>
      {{#each categories}}
      <div class="cat">
        <div class="cat-head"><span>{{name}}</span><span class="counts"><span class="st-pass">{{pass}} pass</span><span class="st-fail">{{fail}} fail</span><span class="st-na">{{na}} n/a</span></span></div>
        <table><tbody>
        {{#each rows}}<tr class="row-{{status}}"><td class="mono">{{id}}</td><td>{{name}}{{#if reason}}<div class="muted">{{reason}}</div>{{/if}}</td><td class="mono">{{points}}pt</td><td><span class="st st-{{status}}">{{statusLabel}}</span></td></tr>
        {{/each}}
        </tbody></table>
      </div>
      {{/each}}
      {{#if notBuilt}}<p class="muted">Not built yet (left out of the score): {{notBuilt}}</p>{{/if}}
    </div>
  </aside>
</div>
{{else}}
<div class="card error">
  <p><span class="band band-error">error</span> <span class="exit-reason">{{exitReason}}</span></p>
  {{#if diagnostics.length}}<pre>{{#each diagnostics}}{{this}}
{{/each}}</pre>{{/if}}
</div>
{{/if}}
</section>
`;

/** One finding: what, where, why, how to fix, and its dataflow chain. */
export const FINDING = `<div class="card finding s-{{severity}}{{#if suppressed}} suppressed{{/if}}" id="{{anchor}}">
  <div class="head">
    <span class="sev sev-{{severity}}">{{severity}}</span>
    <span class="id">{{id}}</span> <span class="muted">{{name}}</span>
    <span class="msg">{{message}}</span>
  </div>
  <div class="where"><a href="#{{lineAnchor}}">line {{line}}:{{column}}</a>{{#if source}} · source {{source}}{{/if}}{{#if function}} · in <code>{{function}}</code>{{/if}}{{#if suppressed}} · suppressed by {{suppressed}}{{#if suppressedReason}}: {{suppressedReason}}{{/if}}{{/if}}</div>
  <dl>
    <dt>Explanation</dt><dd>{{{explanation}}}</dd>
    <dt>Remedy</dt><dd>{{{remedy}}}</dd>
    {{#if confirmation}}<dt>On hardware</dt><dd>{{confirmation}}</dd>{{/if}}
    {{#if chain.length}}<dt>Dataflow chain</dt><dd><ol class="chain">{{#each chain}}<li><code>{{what}}</code> at <a href="#{{anchor}}">line {{line}}</a>{{#if source}} <span class="muted">({{source}})</span>{{/if}}</li>{{/each}}</ol></dd>{{/if}}
    {{#if related.length}}<dt>Related</dt><dd>{{#each related}}<div><a href="#{{anchor}}">line {{line}}</a> {{message}}{{#if source}} <span class="muted">({{source}})</span>{{/if}}</div>{{/each}}</dd>{{/if}}
  </dl>
  {{#if doc}}<details class="doc"><summary>{{id}} documentation</summary><div class="md">{{{doc}}}</div></details>{{/if}}
</div>
`;
