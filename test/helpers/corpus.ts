// The parser corpus: our CUDA kernels compiled by nvcc for every target CUDA 13
// supports that we care about, our LLVM IR compiled by llc (a second
// compiler), and the committed PTX fixtures (hand-written forms, llc output).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compileCuda, compileLlvm, fixtureArch, pool, toolMissing, LLC, NVCC } from './toolchain.js';

export interface CorpusInput {
  /** e.g. "cuda/05-tiled-gemm-shared.cu@sm_90a" */
  readonly name: string;
  readonly text: string;
  /** The target to give ptxas. */
  readonly arch: string;
}

export const CUDA_ARCHS = ['sm_75', 'sm_80', 'sm_90', 'sm_90a'] as const;
export const LLVM_ARCHS = ['sm_75', 'sm_80', 'sm_86'] as const;

export function listFiles(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...listFiles(p, ext));
    else if (entry.endsWith(ext)) out.push(p);
  }
  return out;
}

/** Where the deliberately invalid PTX lives (one defect per file, rejected by ptxas). */
export const INVALID_DIR = join('fixtures', 'invalid');

/** Committed PTX under fixtures/ (every one is accepted by ptxas at its arch),
 *  except the invalid corpus under fixtures/invalid/. */
export function committedPtx(root = 'fixtures'): CorpusInput[] {
  return listFiles(root, '.ptx').filter((f) => !f.startsWith(`${INVALID_DIR}/`)).map((f) => {
    const text = readFileSync(f, 'utf8');
    return { name: f, text, arch: fixtureArch(text) };
  });
}

export interface CompiledCorpus {
  readonly inputs: CorpusInput[];
  /** Why parts were skipped (a missing compiler), printed by the tests. */
  readonly skipped: string[];
}

export async function compiledCorpus(): Promise<CompiledCorpus> {
  const skipped: string[] = [];
  const jobs: { name: string; arch: string; make: () => Promise<string> }[] = [];
  const nvccMissing = toolMissing(NVCC);
  if (nvccMissing === undefined) {
    for (const f of listFiles('fixtures/corpus/cuda', '.cu')) {
      for (const arch of CUDA_ARCHS) jobs.push({ name: `cuda/${basename(f)}@${arch}`, arch, make: () => compileCuda(f, arch) });
    }
    // nvcc -G: full DWARF sections (`.b32 .debug_loc+204` and friends), for a sample.
    for (const f of listFiles('fixtures/corpus/cuda', '.cu').slice(0, 6)) {
      jobs.push({ name: `cuda-G/${basename(f)}@sm_90`, arch: 'sm_90', make: () => compileCuda(f, 'sm_90', true) });
    }
  } else skipped.push(`CUDA corpus skipped: ${nvccMissing}`);
  const llcMissing = toolMissing(LLC);
  if (llcMissing === undefined) {
    for (const f of listFiles('fixtures/corpus/llvm', '.ll')) {
      for (const arch of LLVM_ARCHS) jobs.push({ name: `llvm/${basename(f)}@${arch}`, arch, make: () => compileLlvm(f, arch) });
    }
  } else skipped.push(`LLVM corpus skipped: ${llcMissing}`);
  const inputs = await pool(jobs, async (j) => ({ name: j.name, arch: j.arch, text: await j.make() }));
  return { inputs, skipped };
}
