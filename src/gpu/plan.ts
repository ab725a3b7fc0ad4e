// A launch spec as the native runner's plan: one directive per line (see the
// header of native/runner.c), with capture paths under an output directory.
import { join } from 'node:path';
import type { LaunchSpec } from './launch-spec.js';

export interface Plan {
  readonly text: string;
  /** Argument name → file the runner writes its contents to. */
  readonly captures: ReadonlyMap<string, string>;
}

function fillText(fill: Extract<LaunchSpec['args'][number], { kind: 'buffer' }>['fill']): string {
  if (typeof fill === 'string') return fill;
  if ('constant' in fill) return `const ${fill.constant}`;
  if ('random' in fill) return `random_${fill.random} ${fill.seed}`;
  return `file ${fill.file}`;
}

export function toPlan(spec: LaunchSpec, ptxPath: string, outDir: string): Plan {
  const lines = [
    `ptx ${ptxPath}`,
    `kernel ${spec.kernel}`,
    `grid ${spec.grid.join(' ')}`,
    `block ${spec.block.join(' ')}`,
    `shared ${spec.sharedBytes}`,
    `timeout ${spec.timeoutSeconds}`,
  ];
  const captures = new Map<string, string>();
  for (const a of spec.args) {
    if (a.kind === 'scalar') lines.push(`scalar ${a.type} ${a.value}`);
    else if (a.kind === 'debug') {
      const path = join(outDir, `${a.name}.bin`);
      captures.set(a.name, path);
      lines.push(`debug ${a.words} ${path}`);
    } else {
      const path = a.capture ? join(outDir, `${a.name}.bin`) : '-';
      if (a.capture) captures.set(a.name, path);
      lines.push(`buffer ${a.bytes} ${fillText(a.fill)} ${path}`);
    }
  }
  return { text: `${lines.join('\n')}\n`, captures };
}
