// Matches one parsed instruction (opcode + modifiers) to its ISA table entry:
// which table opcode it is, which value it picked from each modifier group,
// which modifiers fit no group, and which required groups it left out. Every
// check that reads the ISA table (F007–F009, F011–F020 ...) goes through here,
// so "what is this instruction" has exactly one answer.
import type { Instruction } from '../ast.js';
import { lookupOpcode } from './opcodes/index.js';
import type { ModifierGroup, OpcodeSpec } from './types.js';

/** The result of matching an instruction against the ISA table. */
export interface InstructionMatch {
  /** The table entry: the longest dotted opcode the instruction starts with
   *  (`cp.async.bulk.tensor` of `cp.async.bulk.tensor.2d.shared::cluster...`). */
  readonly spec: OpcodeSpec;
  /** The modifiers that are part of the opcode (`.async`, `.bulk`, `.tensor` above). */
  readonly opcodeParts: readonly string[];
  /** Group name → the value the instruction chose from it (with its dot). */
  readonly groups: ReadonlyMap<string, string>;
  /** Modifiers that fit no (still free) group of the spec, in written order. */
  readonly unknown: readonly string[];
  /** Names of required groups the instruction gives no value for. */
  readonly missing: readonly string[];
}

/** The modifiers of `ins` as written after the first opcode part, with the
 *  `opcode` itself first: `["ld", ".global", ".u32"]`. */
function parts(ins: Pick<Instruction, 'opcode' | 'modifiers'>): string[] {
  return [ins.opcode, ...ins.modifiers];
}

interface Assignment {
  readonly groups: Map<string, string>;
  readonly unknown: string[];
  readonly missing: string[];
}

/**
 * Assigns modifiers to groups: each modifier to one group that lists it, at
 * most one modifier per group. Several groups may list the same value (cvt's
 * `dtype`/`atype`, mma's `alayout`/`blayout`, cp.async.bulk's `dst`/`src`):
 * the search tries groups in table order, which is the ISA's written order,
 * and keeps the first assignment with the fewest unknown modifiers, then the
 * fewest missing required groups.
 */
function assign(spec: OpcodeSpec, modifiers: readonly string[]): Assignment {
  const candidates: number[][] = modifiers.map((m) => {
    const out: number[] = [];
    spec.modifiers.forEach((g, i) => {
      if (g.values.includes(m)) out.push(i);
    });
    return out;
  });
  const taken: (string | undefined)[] = spec.modifiers.map(() => undefined);
  let best: { taken: (string | undefined)[]; unknown: string[]; missing: number } | undefined;
  const unknown: string[] = [];
  let steps = 0;
  const missingCount = (t: readonly (string | undefined)[]): number =>
    spec.modifiers.reduce((n, g, i) => n + (g.required === true && t[i] === undefined ? 1 : 0), 0);
  const visit = (k: number): void => {
    if (steps++ > 10_000) return; // the table's groups are small; this bound never binds in practice
    if (best !== undefined && unknown.length > best.unknown.length) return;
    if (k === modifiers.length) {
      const missing = missingCount(taken);
      if (best === undefined || unknown.length < best.unknown.length || (unknown.length === best.unknown.length && missing < best.missing)) {
        best = { taken: [...taken], unknown: [...unknown], missing };
      }
      return;
    }
    const m = modifiers[k]!;
    for (const gi of candidates[k]!) {
      if (taken[gi] !== undefined) continue;
      taken[gi] = m;
      visit(k + 1);
      taken[gi] = undefined;
      if (best !== undefined && best.unknown.length === 0 && best.missing === 0) return;
    }
    unknown.push(m);
    visit(k + 1);
    unknown.pop();
  };
  visit(0);
  const result = best ?? { taken, unknown: [...modifiers], missing: missingCount(taken) };
  const groups = new Map<string, string>();
  const missing: string[] = [];
  spec.modifiers.forEach((g: ModifierGroup, i) => {
    const value = result.taken[i];
    if (value !== undefined) groups.set(g.name, value);
    else if (g.required === true) missing.push(g.name);
  });
  return { groups, unknown: result.unknown, missing };
}

/**
 * Matches an instruction to the ISA table.
 *
 * The opcode is the longest dotted prefix of `opcode.modifier.modifier...`
 * that the table spells as an opcode (`ld.global.nc`, `cp.async.bulk.tensor`,
 * `mbarrier.try_wait`); when a shorter table opcode explains the remaining
 * modifiers strictly better (fewer unknown, then fewer missing), it wins. The
 * remaining modifiers are assigned to the spec's modifier groups, at most one
 * per group.
 *
 * @returns undefined when no prefix of the instruction is a table opcode
 *   (an unknown opcode); otherwise the match, whose `unknown` and `missing`
 *   lists are empty exactly when the modifier combination is in the table.
 */
export function matchInstruction(ins: Pick<Instruction, 'opcode' | 'modifiers'>): InstructionMatch | undefined {
  // The fast parser gives instructions with the same modifiers one list: found by the list, no key is spelled.
  let byOpcode = BY_LIST.get(ins.modifiers);
  let hit = byOpcode?.get(ins.opcode);
  if (hit !== undefined) return hit.match;
  let key = ins.opcode;
  for (const m of ins.modifiers) key += m;
  hit = CACHE.get(key);
  if (hit === undefined) {
    hit = { match: matchUncached(ins) };
    if (CACHE.size >= CACHE_LIMIT) CACHE.clear();
    CACHE.set(key, hit);
  }
  if (byOpcode === undefined) {
    byOpcode = new Map();
    BY_LIST.set(ins.modifiers, byOpcode);
  }
  byOpcode.set(ins.opcode, hit);
  // Shared between instructions of the same spelling: the match is read-only.
  return hit.match;
}

/** Matches by spelling: a module repeats few distinct opcode+modifier strings. */
const CACHE = new Map<string, { readonly match: InstructionMatch | undefined }>();
const CACHE_LIMIT = 20_000;
/** The same, by modifier list (a syntax tree's lists; let go with the tree). */
const BY_LIST = new WeakMap<readonly string[], Map<string, { readonly match: InstructionMatch | undefined }>>();

function matchUncached(ins: Pick<Instruction, 'opcode' | 'modifiers'>): InstructionMatch | undefined {
  const p = parts(ins);
  let best: InstructionMatch | undefined;
  for (let n = p.length; n >= 1; n--) {
    const spec = lookupOpcode(p.slice(0, n).join(''));
    if (spec === undefined) continue;
    const a = assign(spec, p.slice(n));
    const m: InstructionMatch = { spec, opcodeParts: p.slice(1, n), ...a };
    if (best === undefined
      || m.unknown.length < best.unknown.length
      || (m.unknown.length === best.unknown.length && m.missing.length < best.missing.length)) {
      best = m;
    }
    if (best.unknown.length === 0 && best.missing.length === 0) break;
  }
  return best;
}

/** Whether the instruction is a known opcode with a modifier combination the table lists. */
export function isKnownCombination(m: InstructionMatch | undefined): boolean {
  return m !== undefined && m.unknown.length === 0 && m.missing.length === 0;
}

/** The type-group values the instruction chose, by group name (`type`, `dtype`, `atype` ...). */
export function chosenTypes(m: InstructionMatch): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of m.spec.modifiers) {
    const v = m.groups.get(g.name);
    if (g.kind === 'type' && v !== undefined) out.set(g.name, v);
  }
  return out;
}
