// The HTML report's stylesheet, inlined into the page (no network access).
export const STYLE = `
:root {
  --fg: #1d1f23; --muted: #5f6670; --line: #d9dde3; --bg: #f6f7f9; --card: #ffffff;
  --critical: #b3261e; --high: #c4540a; --medium: #9a6b00; --low: #1f6fb2; --info: #6b7280;
  --pass: #1e7d3a; --warn: #9a6b00; --block: #c4540a; --chain: #6b3fa0;
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; color: var(--fg); background: var(--bg); }
header.page { padding: 14px 24px; background: #20232a; color: #f2f2f2; display: flex; gap: 16px; align-items: baseline; }
header.page h1 { margin: 0; font-size: 18px; }
header.page .meta { color: #b8bec8; font-size: 13px; }
main { padding: 16px 24px 48px; max-width: 1500px; margin: 0 auto; }
code, pre, .mono { font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
a { color: #1f5fa8; text-decoration: none; }
a:hover { text-decoration: underline; }
h2 { font-size: 17px; margin: 0 0 12px; word-break: break-all; }
h3 { font-size: 15px; margin: 20px 0 8px; }
h3.first { margin-top: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin-bottom: 14px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
.files-summary td.num { text-align: right; font-variant-numeric: tabular-nums; }
section.file { margin-top: 18px; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 380px; gap: 16px; align-items: start; }
@media (max-width: 1100px) { .layout { grid-template-columns: minmax(0, 1fr); } }
.verdict { display: flex; gap: 18px; align-items: center; }
.gauge { flex: none; }
.gauge .track { stroke: #e5e7eb; }
.gauge .value { transition: none; }
.gauge text { font-weight: 700; }
.band { display: inline-block; padding: 1px 9px; border-radius: 10px; color: #fff; font-weight: 600; font-size: 12px; text-transform: uppercase; }
.band-pass { background: var(--pass); } .band-warn { background: var(--warn); } .band-block { background: var(--block); } .band-critical { background: var(--critical); } .band-error { background: var(--critical); }
.stroke-pass { stroke: var(--pass); } .stroke-warn { stroke: var(--warn); } .stroke-block { stroke: var(--block); } .stroke-critical { stroke: var(--critical); }
.exit-reason { font-weight: 600; margin: 4px 0; }
.muted { color: var(--muted); }
.sev { display: inline-block; min-width: 62px; padding: 0 6px; border-radius: 4px; color: #fff; font-size: 11.5px; font-weight: 600; text-align: center; text-transform: uppercase; }
.sev-critical { background: var(--critical); } .sev-high { background: var(--high); } .sev-medium { background: var(--medium); } .sev-low { background: var(--low); } .sev-info { background: var(--info); }
.finding { border-left: 4px solid var(--line); }
.finding.s-critical { border-left-color: var(--critical); } .finding.s-high { border-left-color: var(--high); } .finding.s-medium { border-left-color: var(--medium); } .finding.s-low { border-left-color: var(--low); } .finding.s-info { border-left-color: var(--info); }
.finding.suppressed { opacity: .7; }
.finding .head { display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.finding .id { font-weight: 700; }
.finding .msg { font-weight: 600; }
.finding .where { color: var(--muted); font-size: 13px; }
.finding dl { display: grid; grid-template-columns: 110px minmax(0, 1fr); gap: 4px 10px; margin: 10px 0 0; }
.finding dt { color: var(--muted); font-size: 12.5px; }
.finding dd { margin: 0; }
.chain { margin: 0; padding-left: 20px; }
.chain li { margin: 1px 0; }
.chain li::marker { color: var(--chain); font-weight: 700; }
details.doc summary { cursor: pointer; color: var(--muted); font-size: 12.5px; }
details.doc .md { border-top: 1px dashed var(--line); margin-top: 6px; padding-top: 4px; }
.md h4, .md h5 { margin: 10px 0 4px; font-size: 13.5px; }
.md pre { background: #f3f4f6; padding: 8px; border-radius: 4px; overflow-x: auto; }
.md p { margin: 4px 0; }
.scorecard .cat { margin-bottom: 10px; }
.scorecard .cat-head { display: flex; justify-content: space-between; font-weight: 600; padding: 4px 0; border-bottom: 2px solid var(--line); }
.scorecard table td { font-size: 12.5px; padding: 2px 6px; }
.st { font-weight: 700; font-size: 11.5px; text-transform: uppercase; }
.st-pass { color: var(--pass); } .st-fail { color: var(--critical); } .st-na, .st-off { color: var(--muted); }
tr.row-fail { background: #fdecea; }
.counts span { margin-left: 8px; font-weight: 600; font-size: 12px; }
.only-failing tr.row-pass, .only-failing tr.row-na, .only-failing tr.row-off { display: none; }
.cfgs { display: flex; flex-wrap: wrap; gap: 12px; }
figure.cfg { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px; max-width: 100%; overflow: auto; }
figure.cfg figcaption { font-size: 12.5px; color: var(--muted); margin-bottom: 4px; }
figure.cfg figcaption b { color: var(--fg); }
figure.cfg svg { display: block; max-width: 100%; height: auto; }
figure.cfg svg text { font-family: "Liberation Mono", "DejaVu Sans Mono", "Courier New", Courier, monospace; }
figure.cfg g.cfg-block:target polygon, figure.cfg g.cfg-block:target path { stroke-width: 3; }
.listing { max-height: 640px; overflow: auto; padding: 0; }
table.src { font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; font-size: 12px; }
table.src td { border: 0; padding: 0 8px; white-space: pre; tab-size: 4; }
table.src td.n { text-align: right; color: var(--muted); user-select: none; width: 1%; border-right: 1px solid var(--line); }
table.src td.marks { white-space: nowrap; width: 1%; }
table.src tr.hit td.code { background: #fdecea; }
table.src tr.hit-critical td.n { background: var(--critical); color: #fff; }
table.src tr.hit-high td.n { background: var(--high); color: #fff; }
table.src tr.hit-medium td.n { background: var(--medium); color: #fff; }
table.src tr.hit-low td.n { background: var(--low); color: #fff; }
table.src tr.hit-info td.n { background: var(--info); color: #fff; }
table.src tr.on-chain td.code { box-shadow: inset 3px 0 0 var(--chain); }
table.src tr:target td { background: #fff6bf; }
.mark { display: inline-block; font-size: 10.5px; font-weight: 700; color: #fff; border-radius: 3px; padding: 0 4px; margin-right: 3px; }
.error pre { white-space: pre-wrap; }
.toolbar { font-size: 12.5px; color: var(--muted); margin-bottom: 6px; }
`;
