// The function builder: typed virtual registers, instructions, labels and the
// structured helpers (guarded blocks, loops) that a kernel or `.func` body uses.
import {
  Reg, renderImm, renderSrc, sizeOf,
  type Accepts, type Addr32, type Addr64, type ArithType, type BitType, type FloatType, type Imm, type InstrType,
  type IntType, type LoadedType, type Pred, type RegType, type Src, type U32, type U64,
} from './types.js';

/** A `.shared` variable declared by the module. */
export interface SharedVar {
  readonly kind: 'shared';
  readonly name: string;
  readonly type: InstrType;
  readonly count: number;
  readonly align: number;
  /** Size in bytes. */
  readonly bytes: number;
}

/** Types a `.param` can have. */
export type ParamType = 'u32' | 's32' | 'f32' | 'u64' | 's64' | 'b32' | 'b64' | 'f64';

/** A kernel or function parameter. */
export interface Param<T extends ParamType> {
  readonly kind: 'param';
  readonly name: string;
  readonly type: T;
}

/** A label; `place` puts it in the body. */
export interface Label {
  readonly name: string;
}

/** Special registers the builder reads (all `.u32`). */
export type SpecialReg =
  | 'tid.x' | 'tid.y' | 'tid.z' | 'ntid.x' | 'ntid.y' | 'ntid.z'
  | 'ctaid.x' | 'ctaid.y' | 'ctaid.z' | 'nctaid.x' | 'nctaid.y' | 'nctaid.z'
  | 'laneid' | 'warpid';

export type Cmp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';
/** Spaces addressed by a 64-bit register. */
export type GlobalSpace = 'global' | 'generic' | 'local' | 'const';
export type ShflMode = 'up' | 'down' | 'bfly' | 'idx';
export type AtomOp = 'add' | 'min' | 'max' | 'exch' | 'cas' | 'and' | 'or' | 'xor' | 'inc' | 'dec';

export interface LoadOptions {
  /** `ld.global.nc`: read-only data cache (the kernel never writes the buffer). */
  readonly nc?: boolean;
  /** `ld.volatile`: not cached in registers (flags polled across iterations). */
  readonly volatile?: boolean;
}

/** Control of the innermost structured loop. */
export interface LoopControl {
  /** Leaves the loop when `p` holds (or does not, with `negate`). */
  breakIf(p: Pred, negate?: boolean): void;
  /** Skips to the next iteration when `p` holds (or does not, with `negate`). */
  continueIf(p: Pred, negate?: boolean): void;
  /** Leaves the loop (an unconditional branch to its end). */
  break(): void;
  /** Goes to the next iteration (an unconditional branch). */
  continue(): void;
}

/** A `.func` the module defines; `FunctionBuilder.call` calls it. */
export interface FuncHandle<A extends readonly ParamType[], R extends readonly ParamType[]> {
  readonly name: string;
  readonly params: A;
  readonly returns: R;
}

type Line =
  | { readonly kind: 'ins'; readonly text: string }
  | { readonly kind: 'label'; readonly name: string }
  | { readonly kind: 'comment'; readonly text: string }
  | { readonly kind: 'text'; readonly text: string };

const PREFIX: Readonly<Record<RegType, string>> = {
  pred: 'p', b16: 'rs', u16: 'rus', s16: 'rss', f16: 'h',
  b32: 'rb', u32: 'r', s32: 'ri', f32: 'f', f16x2: 'hh',
  b64: 'rbd', u64: 'rd', s64: 'rsd', f64: 'fd',
};
const DECL_ORDER: readonly RegType[] = ['pred', 'b16', 'u16', 's16', 'f16', 'f16x2', 'b32', 'u32', 's32', 'f32', 'b64', 'u64', 's64', 'f64'];

/** Bit type of a register type's size, for `.param` declarations. */
function bitType(t: ParamType): 'b32' | 'b64' {
  return sizeOf(t) === 8 ? 'b64' : 'b32';
}

type Base = Reg<Addr64> | Reg<Addr32> | SharedVar | Param<ParamType>;

function renderAddress(base: Base, offset: number): string {
  const b = base instanceof Reg ? base.name : base.name;
  if (offset === 0) return `[${b}]`;
  return offset > 0 ? `[${b}+${offset}]` : `[${b}${offset}]`;
}

function isFloat(t: InstrType): boolean {
  return t === 'f16' || t === 'f32' || t === 'f64';
}
function isSigned(t: InstrType): boolean {
  return t.startsWith('s');
}

/**
 * Builds one function body. Every instruction method takes the instruction
 * type first and operands typed by it (`Src<T>`), defines a fresh register
 * (or the optional `dst`, for loop-carried values) and returns it.
 */
export class FunctionBuilder {
  private readonly lines: Line[] = [];
  private readonly counters = new Map<RegType, number>();
  private readonly labels = new Set<string>();
  private guardText: string | undefined;
  private readonly loops: { readonly top: Label; readonly cont: Label; readonly end: Label }[] = [];
  /** Names a label must not take (parameters, shared variables). */
  private readonly reserved: ReadonlySet<string>;

  constructor(readonly name: string, reserved: Iterable<string> = []) {
    this.reserved = new Set(reserved);
  }

  // ---- registers and raw emission ------------------------------------------------

  /** A fresh virtual register of type `t`. */
  reg<T extends RegType>(t: T): Reg<T> {
    const n = (this.counters.get(t) ?? 0) + 1;
    this.counters.set(t, n);
    return new Reg(t, `%${PREFIX[t]}${n}`);
  }

  /** A fresh group of `n` registers (wmma fragments, vector loads). */
  regs<T extends RegType>(t: T, n: number): Reg<T>[] {
    return Array.from({ length: n }, () => this.reg(t));
  }

  private emit(text: string): void {
    this.lines.push({ kind: 'ins', text: this.guardText === undefined ? text : `${this.guardText} ${text}` });
  }

  /** An instruction with untyped operands. Kernels use it only to reproduce defects the typed API refuses. */
  raw(op: string, args: readonly string[]): void {
    this.emit(args.length === 0 ? `${op};` : `${op} ${args.join(', ')};`);
  }

  /** A comment line in the body. */
  comment(text: string): void {
    this.lines.push({ kind: 'comment', text });
  }

  /** A verbatim line (block braces, local declarations). */
  text(text: string): void {
    this.lines.push({ kind: 'text', text });
  }

  private op(op: string, ...args: string[]): void {
    this.raw(op, args);
  }

  private dst<T extends RegType>(t: T, dst: Reg<T> | undefined): Reg<T> {
    return dst ?? this.reg(t);
  }

  // ---- special registers, parameters, moves -------------------------------------

  /** Reads a special register (`mov.u32 %r, %tid.x`). */
  sreg(name: SpecialReg): U32 {
    const d = this.reg('u32');
    this.op('mov.u32', d.name, `%${name}`);
    return d;
  }

  /** Loads a parameter (`ld.param`). */
  ldParam<T extends ParamType>(p: Param<T>): Reg<T> {
    const d = this.reg(p.type);
    this.op(`ld.param.${p.type}`, d.name, `[${p.name}]`);
    return d;
  }

  /** Stores a return value of a `.func` (`st.param`). */
  stParam<T extends ParamType>(p: Param<T>, value: Src<T>): void {
    this.op(`st.param.${p.type}`, `[${p.name}]`, renderSrc(value as Reg<RegType> | Imm, p.type));
  }

  mov<T extends RegType>(t: T, src: Src<T>, dst?: Reg<T>): Reg<T> {
    const d = this.dst(t, dst);
    this.op(`mov.${t === 'pred' ? 'pred' : t}`, d.name, renderSrc(src as Reg<RegType> | Imm, t));
    return d;
  }

  /** The 32-bit `.shared` window address of a shared variable (`mov.u32 %r, smem`). */
  addrOf(v: SharedVar): U32 {
    const d = this.reg('u32');
    this.op('mov.u32', d.name, v.name);
    return d;
  }

  /** The shared window address in a 64-bit register (`mov.u64 %rd, smem`; legal, but see F022). */
  addrOf64(v: SharedVar): U64 {
    const d = this.reg('u64');
    this.op('mov.u64', d.name, v.name);
    return d;
  }

  /** A generic address of a shared variable (`cvta.shared.u64`; see F021). */
  cvtaShared(v: SharedVar): U64 {
    const d = this.reg('u64');
    this.op('cvta.shared.u64', d.name, v.name);
    return d;
  }

  /** A global address from a kernel pointer parameter (`cvta.to.global.u64`). */
  cvtaToGlobal(ptr: Reg<Addr64>): U64 {
    const d = this.reg('u64');
    this.op('cvta.to.global.u64', d.name, ptr.name);
    return d;
  }

  /** Loads a pointer parameter and converts it to a global address. */
  globalPtr(p: Param<'u64'>): U64 {
    return this.cvtaToGlobal(this.ldParam(p));
  }

  // ---- integer and float arithmetic --------------------------------------------------

  add<T extends ArithType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('add', t, t, a, b, dst);
  }

  sub<T extends ArithType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('sub', t, t, a, b, dst);
  }

  /** Float multiply (`mul.f32`; `mul.rn` is implied). */
  mul<T extends FloatType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('mul', t, t, a, b, dst);
  }

  /** Integer multiply keeping the low half (`mul.lo`). */
  mulLo<T extends IntType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('mul.lo', t, t, a, b, dst);
  }

  /** Widening multiply (`mul.wide.u32` → `.u64`): the index-to-offset step that cannot wrap. */
  mulWide<T extends 'u32' | 's32'>(t: T, a: Src<T>, b: Src<T>): Reg<T extends 'u32' ? 'u64' : 's64'> {
    const wide = (t === 'u32' ? 'u64' : 's64') as T extends 'u32' ? 'u64' : 's64';
    const d = this.reg(wide);
    this.op(`mul.wide.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t), renderSrc(b as Reg<RegType> | Imm, t));
    return d;
  }

  /** `mad.lo`: a*b + c, low half. */
  madLo<T extends IntType>(t: T, a: Src<T>, b: Src<T>, c: Src<T>, dst?: Reg<T>): Reg<T> {
    const d = this.dst(t, dst);
    this.op(`mad.lo.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t), renderSrc(b as Reg<RegType> | Imm, t), renderSrc(c as Reg<RegType> | Imm, t));
    return d;
  }

  /** `mad.wide.u32`: a*b + c with a 64-bit product and addend. */
  madWide(a: Src<'u32'>, b: Src<'u32'>, c: Src<'u64'>, dst?: U64): U64 {
    const d = this.dst('u64', dst);
    this.op('mad.wide.u32', d.name, renderSrc(a as Reg<RegType> | Imm, 'u32'), renderSrc(b as Reg<RegType> | Imm, 'u32'), renderSrc(c as Reg<RegType> | Imm, 'u64'));
    return d;
  }

  /** Fused multiply-add, round to nearest (`fma.rn.f32`). */
  fma<T extends FloatType>(t: T, a: Src<T>, b: Src<T>, c: Src<T>, dst?: Reg<T>): Reg<T> {
    const d = this.dst(t, dst);
    this.op(`fma.rn.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t), renderSrc(b as Reg<RegType> | Imm, t), renderSrc(c as Reg<RegType> | Imm, t));
    return d;
  }

  /** Division: integer `div`, or IEEE `div.rn` for floats. */
  div<T extends ArithType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary(isFloat(t) ? 'div.rn' : 'div', t, t, a, b, dst);
  }

  rem<T extends IntType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('rem', t, t, a, b, dst);
  }

  min<T extends ArithType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('min', t, t, a, b, dst);
  }

  max<T extends ArithType>(t: T, a: Src<T>, b: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.binary('max', t, t, a, b, dst);
  }

  neg<T extends 's32' | 's64' | FloatType>(t: T, a: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.unary('neg', t, a, dst);
  }

  abs<T extends 's32' | 's64' | FloatType>(t: T, a: Src<T>, dst?: Reg<T>): Reg<T> {
    return this.unary('abs', t, a, dst);
  }

  /** 2^x, approximate, flushing subnormals (`ex2.approx.ftz.f32`). */
  ex2(a: Src<'f32'>, dst?: Reg<'f32'>): Reg<'f32'> {
    return this.unary('ex2.approx.ftz', 'f32', a, dst);
  }

  /** 1/sqrt(x), approximate (`rsqrt.approx.f32`). */
  rsqrt(a: Src<'f32'>, dst?: Reg<'f32'>): Reg<'f32'> {
    return this.unary('rsqrt.approx', 'f32', a, dst);
  }

  /** IEEE reciprocal (`rcp.rn.f32`). */
  rcp(a: Src<'f32'>, dst?: Reg<'f32'>): Reg<'f32'> {
    return this.unary('rcp.rn', 'f32', a, dst);
  }

  private binary<T extends RegType>(op: string, t: InstrType, rt: T, a: Src<InstrType>, b: Src<InstrType>, dst?: Reg<T>): Reg<T> {
    const d = this.dst(rt, dst);
    this.op(`${op}.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t), renderSrc(b as Reg<RegType> | Imm, t));
    return d;
  }

  private unary<T extends RegType>(op: string, t: T, a: Src<InstrType>, dst?: Reg<T>): Reg<T> {
    const d = this.dst(t, dst);
    this.op(`${op}.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t));
    return d;
  }

  // ---- bits ----------------------------------------------------------------------------

  /** `and.T`: the result has the first operand's register type. */
  and<T extends BitType, R extends Accepts<T>>(t: T, a: Reg<R>, b: Src<T>, dst?: Reg<R>): Reg<R> {
    return this.logic('and', t, a, b, dst);
  }

  or<T extends BitType, R extends Accepts<T>>(t: T, a: Reg<R>, b: Src<T>, dst?: Reg<R>): Reg<R> {
    return this.logic('or', t, a, b, dst);
  }

  xor<T extends BitType, R extends Accepts<T>>(t: T, a: Reg<R>, b: Src<T>, dst?: Reg<R>): Reg<R> {
    return this.logic('xor', t, a, b, dst);
  }

  not<T extends BitType, R extends Accepts<T>>(t: T, a: Reg<R>): Reg<R> {
    const d = this.reg(a.type);
    this.op(`not.${t}`, d.name, a.name);
    return d;
  }

  private logic<T extends BitType, R extends Accepts<T>>(op: string, t: T, a: Reg<R>, b: Src<T>, dst?: Reg<R>): Reg<R> {
    const d = dst ?? this.reg(a.type);
    this.op(`${op}.${t}`, d.name, a.name, renderSrc(b as Reg<RegType> | Imm, t));
    return d;
  }

  /** Shift left (`shl.b32`); the result has the value's register type. */
  shl<T extends 'b32' | 'b64', R extends Accepts<T>>(t: T, a: Reg<R>, n: Src<'u32'>): Reg<R> {
    const d = this.reg(a.type);
    this.op(`shl.${t}`, d.name, a.name, renderSrc(n as Reg<RegType> | Imm, 'u32'));
    return d;
  }

  /** Shift right: logical for `.u`/`.b`, arithmetic for `.s`. */
  shr<T extends 'u32' | 's32' | 'u64' | 's64' | 'b32' | 'b64', R extends Accepts<T>>(t: T, a: Reg<R>, n: Src<'u32'>): Reg<R> {
    const d = this.reg(a.type);
    this.op(`shr.${t}`, d.name, a.name, renderSrc(n as Reg<RegType> | Imm, 'u32'));
    return d;
  }

  /** Bit-field extract (`bfe.u32 d, a, pos, len`). */
  bfe(a: Src<'u32'>, pos: Src<'u32'>, len: Src<'u32'>): U32 {
    const d = this.reg('u32');
    this.op('bfe.u32', d.name, renderSrc(a as Reg<RegType> | Imm, 'u32'), renderSrc(pos as Reg<RegType> | Imm, 'u32'), renderSrc(len as Reg<RegType> | Imm, 'u32'));
    return d;
  }

  /** Funnel shift right, clamped (`shf.r.clamp.b32`): the 32 bits of hi:lo starting at bit n. */
  shfR(lo: Src<'b32'>, hi: Src<'b32'>, n: Src<'u32'>): U32 {
    const d = this.reg('u32');
    this.op('shf.r.clamp.b32', d.name, renderSrc(lo as Reg<RegType> | Imm, 'b32'), renderSrc(hi as Reg<RegType> | Imm, 'b32'), renderSrc(n as Reg<RegType> | Imm, 'u32'));
    return d;
  }

  /** Bit reverse (`brev.b32`). */
  brev(a: Src<'b32'>): U32 {
    const d = this.reg('u32');
    this.op('brev.b32', d.name, renderSrc(a as Reg<RegType> | Imm, 'b32'));
    return d;
  }

  /** Position of the most significant set bit, as a shift amount (`bfind.shiftamt.u32`; 0xffffffff for 0). */
  bfindShiftAmt(a: Src<'u32'>): U32 {
    const d = this.reg('u32');
    this.op('bfind.shiftamt.u32', d.name, renderSrc(a as Reg<RegType> | Imm, 'u32'));
    return d;
  }

  /** Index of the least significant set bit (`brev` then `bfind.shiftamt`); 0xffffffff for 0. */
  ffs(a: Src<'b32'>): U32 {
    return this.bfindShiftAmt(this.brev(a));
  }

  // ---- comparison, selection, conversion -----------------------------------------------

  setp<T extends ArithType | 'b16' | 'b32' | 'b64'>(cmp: Cmp, t: T, a: Src<T>, b: Src<T>): Pred {
    const d = this.reg('pred');
    // Unsigned and bit comparisons spell the orderings lo/ls/hi/hs.
    const unsignedOrder: Readonly<Record<Cmp, string>> = { eq: 'eq', ne: 'ne', lt: 'lo', le: 'ls', gt: 'hi', ge: 'hs' };
    const c = !isFloat(t) && !isSigned(t) ? unsignedOrder[cmp] : cmp;
    this.op(`setp.${c}.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t), renderSrc(b as Reg<RegType> | Imm, t));
    return d;
  }

  /** `p ? a : b` (`selp`). */
  selp<T extends Exclude<RegType, 'pred'>>(t: T, a: Src<T>, b: Src<T>, p: Pred, dst?: Reg<T>): Reg<T> {
    const d = this.dst(t, dst);
    this.op(`selp.${t}`, d.name, renderSrc(a as Reg<RegType> | Imm, t), renderSrc(b as Reg<RegType> | Imm, t), p.name);
    return d;
  }

  /** Predicate logic: `and.pred`/`or.pred`. */
  andPred(a: Pred, b: Pred): Pred {
    return this.logic('and', 'pred', a, b);
  }

  orPred(a: Pred, b: Pred): Pred {
    return this.logic('or', 'pred', a, b);
  }

  notPred(a: Pred): Pred {
    const d = this.reg('pred');
    this.op('not.pred', d.name, a.name);
    return d;
  }

  /**
   * `cvt.D.S` with the rounding the ISA requires: `.rn` for int→float and
   * float narrowing, `.rzi` (truncation, as a C cast) for float→int, none for
   * float widening and integer resizing. `rounding` overrides the float→int mode.
   */
  cvt<D extends Exclude<RegType, 'pred' | 'f16x2'>, S extends Exclude<InstrType, 'pred' | 'f16x2'>>(
    dt: D, st: S, src: Reg<Accepts<S>>, rounding?: 'rni' | 'rzi' | 'rmi' | 'rpi',
  ): Reg<D> {
    const d = this.reg(dt);
    let mode = '';
    if (isFloat(dt) && !isFloat(st)) mode = '.rn';
    else if (isFloat(dt) && isFloat(st) && sizeOf(dt) < sizeOf(st)) mode = '.rn';
    else if (!isFloat(dt) && isFloat(st)) mode = `.${rounding ?? 'rzi'}`;
    this.op(`cvt${mode}.${dt}.${st}`, d.name, src.name);
    return d;
  }

  // ---- memory ----------------------------------------------------------------------------

  /** A load from a space addressed by a 64-bit register: `ld.global`, generic `ld`, `ld.local`, `ld.const`. */
  ld<T extends InstrType>(space: GlobalSpace, t: T, base: Reg<Addr64>, offset = 0, opts: LoadOptions = {}): Reg<LoadedType<T>> {
    const d = this.reg(loadedType(t));
    this.op(`${ldPrefix('ld', space, opts)}.${t}`, d.name, renderAddress(base, offset));
    return d as Reg<LoadedType<T>>;
  }

  /** A load into an existing register (a guarded load keeps the register's earlier value where the guard fails). */
  ldInto<T extends InstrType>(space: GlobalSpace, t: T, dst: Reg<LoadedType<T>>, base: Reg<Addr64>, offset = 0, opts: LoadOptions = {}): Reg<LoadedType<T>> {
    this.op(`${ldPrefix('ld', space, opts)}.${t}`, dst.name, renderAddress(base, offset));
    return dst;
  }

  /** A vector load (`ld.global.v4.f32 {..}, [a]`). */
  ldVec<T extends InstrType>(space: GlobalSpace | 'shared', t: T, n: 2 | 4, base: Base, offset = 0, opts: LoadOptions = {}): Reg<LoadedType<T>>[] {
    const ds = this.regs(loadedType(t), n);
    this.op(`${ldPrefix('ld', space, opts)}.v${n}.${t}`, `{${ds.map((r) => r.name).join(', ')}}`, renderAddress(base, offset));
    return ds as Reg<LoadedType<T>>[];
  }

  /** A `.shared` load at a 32-bit window offset or a variable (a 64-bit register is legal too: see F022). */
  lds<T extends InstrType>(t: T, base: Reg<Addr32> | Reg<Addr64> | SharedVar, offset = 0, opts: LoadOptions = {}): Reg<LoadedType<T>> {
    const d = this.reg(loadedType(t));
    this.op(`${ldPrefix('ld', 'shared', opts)}.${t}`, d.name, renderAddress(base, offset));
    return d as Reg<LoadedType<T>>;
  }

  /** A store to a space addressed by a 64-bit register. */
  st<T extends InstrType>(space: GlobalSpace, t: T, base: Reg<Addr64>, value: Src<T>, offset = 0, opts: { readonly volatile?: boolean } = {}): void {
    this.op(`${ldPrefix('st', space, opts)}.${t}`, renderAddress(base, offset), renderSrc(value as Reg<RegType> | Imm, t));
  }

  /** A vector store. */
  stVec<T extends InstrType>(space: GlobalSpace | 'shared', t: T, base: Base, values: readonly Reg<Accepts<T>>[], offset = 0): void {
    this.op(`${ldPrefix('st', space, {})}.v${values.length}.${t}`, renderAddress(base, offset), `{${values.map((r) => r.name).join(', ')}}`);
  }

  /** A `.shared` load into an existing register (for guarded loads). */
  ldsInto<T extends InstrType>(t: T, dst: Reg<LoadedType<T>>, base: Reg<Addr32> | Reg<Addr64> | SharedVar, offset = 0): Reg<LoadedType<T>> {
    this.op(`ld.shared.${t}`, dst.name, renderAddress(base, offset));
    return dst;
  }

  /** A `.shared` store. */
  sts<T extends InstrType>(t: T, base: Reg<Addr32> | Reg<Addr64> | SharedVar, value: Src<T>, offset = 0): void {
    this.op(`st.shared.${t}`, renderAddress(base, offset), renderSrc(value as Reg<RegType> | Imm, t));
  }

  /** An atomic read-modify-write on global memory; returns the old value. */
  atomGlobal<T extends 'u32' | 's32' | 'u64' | 'f32'>(op: AtomOp, t: T, base: Reg<Addr64>, value: Src<T>, offset = 0, dst?: Reg<T>): Reg<T> {
    const d = this.dst(t, dst);
    this.op(`atom.global.${op}.${t}`, d.name, renderAddress(base, offset), renderSrc(value as Reg<RegType> | Imm, t));
    return d;
  }

  // ---- synchronization and warp collectives ----------------------------------------------

  /** CTA barrier (`bar.sync id[, count]`). */
  barSync(id = 0, count?: number): void {
    if (count === undefined) this.op('bar.sync', String(id));
    else this.op('bar.sync', String(id), String(count));
  }

  /** Warp barrier with memory ordering among the named lanes (`bar.warp.sync`). */
  barWarpSync(mask = 0xffffffff): void {
    this.op('bar.warp.sync', renderImm(mask, 'b32'));
  }

  /**
   * `shfl.sync.MODE.b32 d, a, b, c, mask`. `c` is derived from `width` (the
   * segment size: `c = ((32 - width) << 8) | clamp`, clamp 0 for `up`, 31 otherwise).
   */
  shfl<T extends 'b32' | 'u32' | 's32' | 'f32'>(mode: ShflMode, value: Reg<T>, b: Src<'u32'>, width = 32, mask = 0xffffffff): Reg<T> {
    const d = this.reg(value.type);
    const clamp = mode === 'up' ? 0 : (width - 1);
    const c = ((32 - width) << 8) | clamp;
    this.op(`shfl.sync.${mode}.b32`, d.name, value.name, renderSrc(b as Reg<RegType> | Imm, 'u32'), renderImm(c, 'b32'), renderImm(mask, 'b32'));
    return d;
  }

  /** `vote.sync.ballot.b32`: one bit per lane whose predicate holds. */
  ballot(p: Pred, mask = 0xffffffff): U32 {
    const d = this.reg('u32');
    this.op('vote.sync.ballot.b32', d.name, p.name, renderImm(mask, 'b32'));
    return d;
  }

  // ---- tensor cores (wmma m16n16k16, f16 inputs, f32 accumulators) ----------------------------

  /** `wmma.load.{a,b}.sync.aligned.LAYOUT.m16n16k16.SPACE.f16`: eight `.f16x2` registers; `stride` in elements. */
  wmmaLoad(frag: 'a' | 'b', layout: 'row' | 'col', space: 'shared' | 'global', base: Base, stride: Src<'u32'>, offset = 0): Reg<'f16x2'>[] {
    const ds = this.regs('f16x2', 8);
    this.op(`wmma.load.${frag}.sync.aligned.${layout}.m16n16k16.${space}.f16`, `{${ds.map((r) => r.name).join(', ')}}`, renderAddress(base, offset),
      renderSrc(stride as Reg<RegType> | Imm, 'u32'));
    return ds;
  }

  /** `wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.m16n16k16.f32.f32 d, a, b, c` (d may be c: accumulate in place). */
  wmmaMma(aLayout: 'row' | 'col', bLayout: 'row' | 'col', d: readonly Reg<'f32'>[], a: readonly Reg<'f16x2'>[], b: readonly Reg<'f16x2'>[], c: readonly Reg<'f32'>[]): void {
    if (d.length !== 8 || c.length !== 8 || a.length !== 8 || b.length !== 8) throw new Error('wmma m16n16k16 f16/f32 fragments have 8 registers each');
    const v = (rs: readonly Reg<RegType>[]): string => `{${rs.map((r) => r.name).join(', ')}}`;
    this.op(`wmma.mma.sync.aligned.${aLayout}.${bLayout}.m16n16k16.f32.f32`, v(d), v(a), v(b), v(c));
  }

  /** `wmma.store.d.sync.aligned.LAYOUT.m16n16k16.SPACE.f32 [a], d, stride`. */
  wmmaStore(layout: 'row' | 'col', space: 'shared' | 'global', base: Base, d: readonly Reg<'f32'>[], stride: Src<'u32'>, offset = 0): void {
    this.op(`wmma.store.d.sync.aligned.${layout}.m16n16k16.${space}.f32`, renderAddress(base, offset), `{${d.map((r) => r.name).join(', ')}}`,
      renderSrc(stride as Reg<RegType> | Imm, 'u32'));
  }

  // ---- control flow -------------------------------------------------------------------------

  /** A new label, unique in the function (`name`, then `name_1`, ...). */
  newLabel(name: string): Label {
    let candidate = name;
    for (let i = 1; this.labels.has(candidate) || this.reserved.has(candidate); i++) candidate = `${name}_${i}`;
    this.labels.add(candidate);
    return { name: candidate };
  }

  /** Puts a label here. */
  place(label: Label): void {
    if (this.guardText !== undefined) throw new Error(`label ${label.name} inside a guarded block`);
    this.lines.push({ kind: 'label', name: label.name });
  }

  /** Unconditional branch. */
  bra(label: Label): void {
    this.op('bra', label.name);
  }

  /** Branch when `p` holds (or does not, with `negate`). */
  braIf(p: Pred, label: Label, negate = false): void {
    if (this.guardText !== undefined) throw new Error('a conditional branch inside a guarded block');
    this.emit(`@${negate ? '!' : ''}${p.name} bra ${label.name};`);
  }

  /** Emits `body` with every instruction predicated on `p` (or `!p`); no labels or branches inside. */
  guard(p: Pred, body: () => void, negate = false): void {
    if (this.guardText !== undefined) throw new Error('nested guarded blocks');
    this.guardText = `@${negate ? '!' : ''}${p.name}`;
    try {
      body();
    } finally {
      this.guardText = undefined;
    }
  }

  /** Runs `body` only where `p` holds (or does not, with `negate`): a branch around it. */
  ifThen(p: Pred, body: () => void, opts: { readonly negate?: boolean; readonly name?: string } = {}): void {
    const skip = this.newLabel(opts.name ?? 'skip');
    this.braIf(p, skip, !(opts.negate ?? false));
    body();
    this.place(skip);
  }

  /** `if (p) then() else otherwise()`. */
  ifElse(p: Pred, then: () => void, otherwise: () => void, name = 'if'): void {
    const elseLabel = this.newLabel(`${name}_else`);
    const end = this.newLabel(`${name}_end`);
    this.braIf(p, elseLabel, true);
    then();
    this.bra(end);
    this.place(elseLabel);
    otherwise();
    this.place(end);
  }

  /**
   * `for (i = from; i < to; i += step) body(i)` over `.u32`, tested at the top.
   * `to` and `step` are read each iteration, so they may be registers.
   */
  forRange(name: string, from: Src<'u32'>, to: Src<'u32'>, body: (i: U32, ctl: LoopControl) => void, step: Src<'u32'> = 1): void {
    const i = this.mov('u32', from);
    const top = this.newLabel(name);
    const cont = this.newLabel(`${name}_next`);
    const end = this.newLabel(`${name}_end`);
    this.place(top);
    const done = this.setp('ge', 'u32', i, to);
    this.braIf(done, end);
    this.loops.push({ top, cont, end });
    body(i, this.control());
    this.loops.pop();
    this.place(cont);
    this.add('u32', i, step, i);
    this.bra(top);
    this.place(end);
  }

  /** A loop with no condition of its own: `body` leaves it with `ctl.breakIf`. */
  loop(name: string, body: (ctl: LoopControl) => void): void {
    const top = this.newLabel(name);
    const end = this.newLabel(`${name}_end`);
    this.place(top);
    this.loops.push({ top, cont: top, end });
    body(this.control());
    this.loops.pop();
    this.bra(top);
    this.place(end);
  }

  private control(): LoopControl {
    const frame = this.loops[this.loops.length - 1];
    if (frame === undefined) throw new Error('no loop');
    return {
      breakIf: (p, negate = false) => this.braIf(p, frame.end, negate),
      continueIf: (p, negate = false) => this.braIf(p, frame.cont, negate),
      break: () => this.bra(frame.end),
      continue: () => this.bra(frame.cont),
    };
  }

  ret(): void {
    this.op('ret');
  }

  exit(): void {
    this.op('exit');
  }

  /**
   * Calls a `.func` with the nvcc call sequence: a `{ }` block declaring
   * `.param` arguments and return values, `call.uni`, and the loads of the results.
   */
  call<A extends readonly ParamType[], R extends readonly ParamType[]>(
    fn: FuncHandle<A, R>, args: { readonly [K in keyof A]: Src<A[K]> },
  ): { [K in keyof R]: Reg<R[K]> } {
    if (this.guardText !== undefined) throw new Error('a call inside a guarded block');
    this.text('{');
    const argNames = fn.params.map((t, i) => {
      const name = `param${i}`;
      this.text(`\t.param .${bitType(t)} ${name};`);
      this.op(`st.param.${t}`, `[${name}]`, renderSrc(args[i] as Reg<RegType> | Imm, t));
      return name;
    });
    const retNames = fn.returns.map((t, i) => {
      const name = `retval${i}`;
      this.text(`\t.param .${bitType(t)} ${name};`);
      return name;
    });
    const rets = retNames.length > 0 ? `(${retNames.join(', ')}), ` : '';
    this.emit(`call.uni ${rets}${fn.name}, (${argNames.join(', ')});`);
    const results = fn.returns.map((t, i) => {
      const d = this.reg(t);
      this.op(`ld.param.${t}`, d.name, `[${retNames[i]}]`);
      return d;
    });
    this.text('}');
    return results as { [K in keyof R]: Reg<R[K]> };
  }

  // ---- emission -------------------------------------------------------------------------------

  /** The register declarations and the body, indented, without braces. */
  renderBody(): string {
    const out: string[] = [];
    for (const t of DECL_ORDER) {
      const n = this.counters.get(t);
      if (n !== undefined) out.push(`\t.reg .${t} \t%${PREFIX[t]}<${n + 1}>;`);
    }
    if (out.length > 0) out.push('');
    for (const line of this.lines) {
      if (line.kind === 'label') out.push(`${line.name}:`);
      else if (line.kind === 'comment') out.push(`\t// ${line.text}`);
      else out.push(`\t${line.text}`);
    }
    return out.join('\n');
  }
}

function loadedType(t: InstrType): RegType {
  if (t === 'u8') return 'u32';
  if (t === 's8') return 's32';
  if (t === 'b8') return 'b32';
  return t;
}

function ldPrefix(op: 'ld' | 'st', space: GlobalSpace | 'shared', opts: LoadOptions): string {
  let s = op;
  if (opts.volatile === true) s += '.volatile';
  if (space !== 'generic') s += `.${space}`;
  if (opts.nc === true) s += '.nc';
  return s;
}
