// The Rust output of gen-fkr: a `tests/*.rs` integration test using only std
// that runs `ptx-debug analyze --format tsv` through std::process::Command and
// asserts each hypothesis's verdict with a readable message; with a launch
// spec, GPU tests behind the `cuda` cargo feature run the kernel through
// `ptx-debug run` and compare its captured outputs with reference files.
// The text is laid out as rustfmt lays it out (100 columns).
import { describeOutcome, optionFlags, regenerateHint, rustString, wrapComment, type FkrGpuInput, type FkrInput } from './input.js';

const MAX_WIDTH = 100;

/** `name(args);` at `indent`, broken one argument a line when rustfmt would. */
function call(indent: string, name: string, args: readonly string[]): string[] {
  const flat = `${indent}${name}(${args.join(', ')});`;
  if (flat.length <= MAX_WIDTH) return [flat];
  return [`${indent}${name}(`, ...args.map((a) => `${indent}    ${a},`), `${indent});`];
}

/** A Rust identifier from a hypothesis or buffer name. */
function snake(text: string): string {
  const s = text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z_]/.test(s) ? s : `_${s}`;
}

function stringArray(indent: string, name: string, items: readonly string[]): string[] {
  const head = `${indent}const ${name}: &[&str] = &[`;
  const flat = `${head}${items.map(rustString).join(', ')}];`;
  if (items.length === 0) return [`${head}];`];
  if (flat.length <= MAX_WIDTH) return [flat];
  return [head, ...items.map((s) => `${indent}    ${rustString(s)},`), `${indent}];`];
}

function constStr(indent: string, name: string, value: string): string[] {
  const flat = `${indent}const ${name}: &str = ${rustString(value)};`;
  return flat.length <= MAX_WIDTH ? [flat] : [`${indent}const ${name}: &str =`, `${indent}    ${rustString(value)};`];
}

const SUPPORT = `
fn crate_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The program in \`PTX_DEBUG\` (with any leading arguments), else \`ptx-debug\` on PATH.
fn ptx_debug() -> Command {
    let spec = std::env::var("PTX_DEBUG").unwrap_or_else(|_| "ptx-debug".to_string());
    let mut words = spec.split_whitespace();
    let mut command = Command::new(words.next().unwrap_or("ptx-debug"));
    command.args(words).current_dir(crate_root());
    command
}

struct Verdict {
    id: String,
    status: String,
    lines: Vec<u32>,
}

struct Analysis {
    exit_code: i32,
    verdicts: Vec<Verdict>,
}

/// One \`analyze --format tsv\` run, shared by the tests.
fn analysis() -> &'static Analysis {
    static ANALYSIS: OnceLock<Result<Analysis, String>> = OnceLock::new();
    match ANALYSIS.get_or_init(analyze) {
        Ok(analysis) => analysis,
        Err(why) => panic!("{why}"),
    }
}

/// Per hypothesis: \`fail\` when any kernel's row fails, else the rows' common
/// status (else \`mixed\`), and the finding lines of every row, sorted.
fn analyze() -> Result<Analysis, String> {
    let output = ptx_debug()
        .args(["analyze", "--format", "tsv"])
        .args(ANALYZE_ARGS)
        .arg(PTX)
        .output()
        .map_err(|e| format!("cannot run ptx-debug (set PTX_DEBUG or put it on PATH): {e}"))?;
    let exit_code = output.status.code().unwrap_or(-1);
    if !(0..=3).contains(&exit_code) {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "ptx-debug analyze {PTX} exited {exit_code}: {}",
            stderr.trim()
        ));
    }
    let mut verdicts: Vec<Verdict> = Vec::new();
    for row in String::from_utf8_lossy(&output.stdout).lines().skip(1) {
        let cols: Vec<&str> = row.split('\\t').collect();
        if cols.len() < 5 || cols[2] == "-" {
            continue;
        }
        let (id, status) = (cols[2], cols[3]);
        let lines: Vec<u32> = cols[4].split(',').filter_map(|l| l.parse().ok()).collect();
        match verdicts.iter_mut().find(|v| v.id == id) {
            Some(v) => {
                if status == "fail" {
                    v.status = "fail".to_string();
                } else if v.status != "fail" && v.status != status {
                    v.status = "mixed".to_string();
                }
                v.lines.extend(lines);
            }
            None => verdicts.push(Verdict {
                id: id.to_string(),
                status: status.to_string(),
                lines,
            }),
        }
    }
    for v in &mut verdicts {
        v.lines.sort_unstable();
    }
    Ok(Analysis {
        exit_code,
        verdicts,
    })
}

fn describe(status: &str, lines: &str) -> String {
    if lines.is_empty() {
        status.to_string()
    } else {
        let noun = if lines.contains(',') { "lines" } else { "line" };
        format!("{status} at {noun} {lines}")
    }
}

/// Asserts a hypothesis's status and finding lines (comma-separated, sorted).
fn expect_verdict(id: &str, name: &str, status: &str, lines: &str) {
    let (got_status, got_lines) = match analysis().verdicts.iter().find(|v| v.id == id) {
        Some(v) => {
            let lines: Vec<String> = v.lines.iter().map(|l| l.to_string()).collect();
            (v.status.as_str(), lines.join(","))
        }
        None => ("absent from the report", String::new()),
    };
    assert!(
        got_status == status && got_lines == lines,
        "{id} {name} changed on {PTX}: expected {}, got {}\\n\\
         if that is intended, regenerate this file: {REGENERATE}",
        describe(status, lines),
        describe(got_status, &got_lines),
    );
}

/// Asserts the score band, which \`analyze\` reports as its exit code.
fn expect_band(band: &str) {
    let got = match analysis().exit_code {
        0 => "pass",
        1 => "warn",
        2 => "block",
        _ => "critical",
    };
    assert!(
        got == band,
        "the score band changed on {PTX}: expected {band}, got {got}\\n\\
         if that is intended, regenerate this file: {REGENERATE}",
    );
}
`;

function gpuModule(gpu: FkrGpuInput): string[] {
  const lines = [
    '',
    '#[cfg(feature = "cuda")]',
    'mod gpu {',
    '    use super::*;',
    '    use std::path::PathBuf;',
    '',
    '    // The runner launch spec and the reference outputs, relative to the crate root.',
    ...constStr('    ', 'LAUNCH', gpu.launch),
    ...constStr('    ', 'REFERENCE', gpu.reference),
    ...constStr('    ', 'KERNEL', gpu.kernel),
    ...(gpu.tolerance !== undefined ? [`    const TOLERANCE: (f32, f32) = (${rustFloat(gpu.tolerance.rel)}, ${rustFloat(gpu.tolerance.abs)});`] : []),
    '',
    '    enum Run {',
    '        Done(PathBuf),',
    '        NoGpu(String),',
    '        Failed(String),',
    '    }',
    '',
    '    /// One `ptx-debug run` of the kernel, shared by the tests.',
    '    fn run() -> &\'static Run {',
    '        static RUN: OnceLock<Run> = OnceLock::new();',
    '        RUN.get_or_init(|| {',
    '            let out =',
    '                std::env::temp_dir().join(format!("ptx-debug-fkr-{KERNEL}-{}", std::process::id()));',
    '            let output = ptx_debug()',
    '                .args(["run", PTX, "--kernel", KERNEL, "--launch", LAUNCH, "--out"])',
    '                .arg(&out)',
    '                .output();',
    '            let output = match output {',
    '                Ok(output) => output,',
    '                Err(e) => return Run::Failed(format!("cannot run ptx-debug: {e}")),',
    '            };',
    '            let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();',
    '            if output.status.success() {',
    '                Run::Done(out)',
    '            } else if stderr.contains("no CUDA driver") || stderr.contains("native runner") {',
    '                Run::NoGpu(stderr)',
    '            } else {',
    '                Run::Failed(format!("ptx-debug run exited {}: {stderr}", output.status))',
    '            }',
    '        })',
    '    }',
    '',
    '    /// The captured buffers\' directory; `None` (the reason printed) without a GPU.',
    '    fn ran() -> Option<&\'static Path> {',
    '        match run() {',
    '            Run::Done(dir) => Some(dir),',
    '            Run::NoGpu(why) => {',
    '                eprintln!("[fkr] GPU tests of {PTX} skipped: {why}");',
    '                None',
    '            }',
    '            Run::Failed(why) => panic!("{KERNEL} failed on the GPU: {why}"),',
    '        }',
    '    }',
    '',
    '    /// Compares a captured buffer with its reference file (written instead with',
    '    /// FKR_UPDATE_REFERENCE=1).',
    '    fn matches_reference(dir: &Path, name: &str) {',
    '        let captured = dir.join(format!("{name}.bin"));',
    '        let got = std::fs::read(&captured)',
    '            .unwrap_or_else(|e| panic!("cannot read {}: {e}", captured.display()));',
    '        let file = crate_root().join(REFERENCE).join(format!("{name}.bin"));',
    '        if std::env::var("FKR_UPDATE_REFERENCE").as_deref() == Ok("1") {',
    '            std::fs::create_dir_all(crate_root().join(REFERENCE)).unwrap();',
    '            std::fs::write(&file, &got).unwrap();',
    '            return;',
    '        }',
    '        let want = std::fs::read(&file).unwrap_or_else(|e| {',
    '            panic!(',
    '                "no reference {}: {e}; record one from a run you trust with FKR_UPDATE_REFERENCE=1",',
    '                file.display()',
    '            )',
    '        });',
    '        assert_eq!(',
    '            got.len(),',
    '            want.len(),',
    '            "{name}: size in bytes differs from {}",',
    '            file.display()',
    '        );',
  ];
  if (gpu.tolerance === undefined) {
    lines.push(
      '        let differing = got.iter().zip(&want).filter(|(g, w)| g != w).count();',
      '        let first = got.iter().zip(&want).position(|(g, w)| g != w).unwrap_or(0);',
      '        assert!(',
      '            differing == 0,',
      '            "{name}: {differing} byte(s) differ from {}, the first at offset {first}",',
      '            file.display()',
      '        );',
    );
  } else {
    lines.push(
      '        let values = |bytes: &[u8]| -> Vec<f32> {',
      '            bytes',
      '                .chunks_exact(4)',
      '                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))',
      '                .collect()',
      '        };',
      '        let (g, w) = (values(&got), values(&want));',
      '        let (rel, abs) = TOLERANCE;',
      '        let close = |g: f32, w: f32| {',
      '            g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= abs + rel * w.abs()',
      '        };',
      '        let bad: Vec<usize> = (0..g.len()).filter(|&i| !close(g[i], w[i])).collect();',
      '        let first = bad.first().copied().unwrap_or(0);',
      '        assert!(',
      '            bad.is_empty(),',
      '            "{name}: {} f32 value(s) outside the tolerance of {}, the first at [{first}]: {} vs {}",',
      '            bad.len(),',
      '            file.display(),',
      '            g.get(first).copied().unwrap_or_default(),',
      '            w.get(first).copied().unwrap_or_default()',
      '        );',
    );
  }
  lines.push(
    '    }',
    '',
    '    #[test]',
    '    fn runs_to_completion() {',
    '        ran();',
    '    }',
  );
  for (const name of gpu.captures) {
    lines.push(
      '',
      '    #[test]',
      `    fn captured_${snake(name)}_matches_the_reference() {`,
      '        if let Some(dir) = ran() {',
      ...call('            ', 'matches_reference', ['dir', rustString(name)]),
      '        }',
      '    }',
    );
  }
  lines.push('}');
  return lines;
}

function rustFloat(n: number): string {
  const s = String(n);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

export function renderRust(input: FkrInput): string {
  const { model, gpu } = input;
  const lines = [
    ...wrapComment(`FKR (falsification) tests for ${input.displayName}: the verdict of every ptx-debug hypothesis on it, frozen when this file was generated (score ${model.score}, band ${model.band}). A test fails when the kernel or the analyzer changes a verdict; if the change is intended, regenerate this file and review the diff.`, '// ', MAX_WIDTH),
    '//',
    '// The tests run `ptx-debug analyze --format tsv` from the crate root: the program named by the',
    '// PTX_DEBUG environment variable, with any leading arguments (PTX_DEBUG="node bin/ptx-debug.js"),',
    '// else `ptx-debug` on PATH.',
    ...(gpu !== undefined
      ? wrapComment(`The GPU tests run ${gpu.kernel} through \`ptx-debug run\` and compare its captured outputs with ${gpu.reference}; they need the \`cuda\` feature (\`[features] cuda = []\` in Cargo.toml, then \`cargo test --features cuda\`) and print why they are skipped where there is no CUDA driver.`, '// ', MAX_WIDTH)
      : []),
    '//',
    `// Generated by \`ptx-debug gen-fkr\`; do not edit by hand. Regenerate with${input.regenerateFrom !== undefined ? ` (in ${input.regenerateFrom})` : ''}:`,
    `//   ${input.regenerate}`,
    '',
    'use std::path::Path;',
    'use std::process::Command;',
    'use std::sync::OnceLock;',
    '',
    '// The PTX file, relative to the crate root, and the options its verdicts were frozen with.',
    ...constStr('', 'PTX', input.ptx),
    ...stringArray('', 'ANALYZE_ARGS', [...flagsFor(input)]),
    ...constStr('', 'REGENERATE', regenerateHint(input)),
    ...SUPPORT.split('\n').slice(0, -1),
  ];
  for (const h of input.tsv) {
    const name = model.hypotheses.find((x) => x.id === h.id)?.name ?? h.id;
    lines.push(
      '',
      `// ${h.id} ${name}: ${describeOutcome(h.status, h.lines)}`,
      '#[test]',
      `fn ${snake(`${h.id}_${name}`)}() {`,
      ...call('    ', 'expect_verdict', [rustString(h.id), rustString(name), rustString(h.status), rustString(h.lines.join(','))]),
      '}',
    );
  }
  lines.push(
    '',
    '#[test]',
    'fn score_band() {',
    `    expect_band(${rustString(model.band)});`,
    '}',
  );
  if (gpu !== undefined) lines.push(...gpuModule(gpu));
  return `${lines.join('\n')}\n`;
}

function flagsFor(input: FkrInput): string[] {
  return [...(input.config !== undefined ? ['--config', input.config] : []), ...optionFlags(input.options)];
}
