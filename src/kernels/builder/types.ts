// PTX types as TypeScript types: typed virtual registers, the ISA's
// register-compatibility rule, immediates and how operands render.

/** Types a `.reg` can be declared with (the builder never declares 8-bit registers). */
export type RegType =
  | 'pred'
  | 'b16' | 'u16' | 's16' | 'f16'
  | 'b32' | 'u32' | 's32' | 'f32' | 'f16x2'
  | 'b64' | 'u64' | 's64' | 'f64';

/** Instruction types: register types plus the 8-bit memory types. */
export type InstrType = RegType | 'b8' | 'u8' | 's8';

/**
 * The register types an instruction of type `T` accepts, per the ISA's
 * type-compatibility rule: a bit type matches any type of its size, signed and
 * unsigned integers of one size interchange, a float type matches itself and
 * the bit type of its size. This is what makes `add.f32` on a `.u64` register
 * a compile error.
 */
export type Accepts<T extends InstrType> =
  T extends 'pred' ? 'pred'
  : T extends 'b16' ? 'b16' | 'u16' | 's16' | 'f16'
  : T extends 'u16' | 's16' ? 'b16' | 'u16' | 's16'
  : T extends 'f16' ? 'f16' | 'b16'
  : T extends 'b32' ? 'b32' | 'u32' | 's32' | 'f32' | 'f16x2'
  : T extends 'u32' | 's32' ? 'b32' | 'u32' | 's32'
  : T extends 'f32' ? 'f32' | 'b32'
  : T extends 'f16x2' ? 'f16x2' | 'b32'
  : T extends 'b64' ? 'b64' | 'u64' | 's64' | 'f64'
  : T extends 'u64' | 's64' ? 'b64' | 'u64' | 's64'
  : T extends 'f64' ? 'f64' | 'b64'
  // 8-bit memory types live in 32-bit registers (ld widens, st truncates).
  : T extends 'u8' | 's8' | 'b8' ? 'b32' | 'u32' | 's32' | 'b16' | 'u16' | 's16'
  : never;

/** The register type an `ld` of type `T` defines (8-bit loads widen to 32 bits). */
export type LoadedType<T extends InstrType> =
  T extends 'u8' ? 'u32' : T extends 's8' ? 's32' : T extends 'b8' ? 'b32' : T extends RegType ? T : never;

/** A virtual register of type `T`. Only the builder that declared it creates one. */
export class Reg<T extends RegType> {
  constructor(readonly type: T, readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

export type Pred = Reg<'pred'>;
export type U32 = Reg<'u32'>;
export type S32 = Reg<'s32'>;
export type U64 = Reg<'u64'>;
export type F32 = Reg<'f32'>;
export type B16 = Reg<'b16'>;

/** Integer instruction types. */
export type IntType = 'u16' | 's16' | 'u32' | 's32' | 'u64' | 's64';
/** Float instruction types (f16 arithmetic needs sm_53, which every supported target has). */
export type FloatType = 'f32' | 'f64' | 'f16';
/** Bit types for logic operations. */
export type BitType = 'b16' | 'b32' | 'b64' | 'pred';
/** Types `add`/`sub`/`min`/`max` take. */
export type ArithType = IntType | FloatType;

/** 64-bit register types usable as a global or generic address. */
export type Addr64 = 'u64' | 's64' | 'b64';
/** 32-bit register types usable as a `.shared` offset. */
export type Addr32 = 'u32' | 's32' | 'b32';

/** An immediate operand: a number (rendered for the instruction's type) or a 64-bit integer. */
export type Imm = number | bigint;

/** A source operand of an instruction of type `T`: a compatible register or an immediate. */
export type Src<T extends InstrType> = T extends 'pred' ? Reg<'pred'> : Reg<Accepts<T>> | Imm;

/** The size in bytes of an instruction type. */
export function sizeOf(t: InstrType): number {
  if (t === 'pred') return 0;
  const m = /(\d+)/.exec(t);
  const bits = t === 'f16x2' ? 32 : Number(m?.[1] ?? 0);
  return bits / 8;
}

function floatBits32(x: number): string {
  const buf = new DataView(new ArrayBuffer(4));
  buf.setFloat32(0, x);
  return buf.getUint32(0).toString(16).toUpperCase().padStart(8, '0');
}

function floatBits64(x: number): string {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  return buf.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0');
}

/** Renders an immediate for an instruction of type `t` (floats as exact hex: `0f3F800000`). */
export function renderImm(value: Imm, t: InstrType): string {
  if (t === 'f32') {
    if (typeof value === 'bigint') throw new Error('a 64-bit integer is not an f32 immediate');
    return `0f${floatBits32(value)}`;
  }
  if (t === 'f64') {
    if (typeof value === 'bigint') throw new Error('a 64-bit integer is not an f64 immediate');
    return `0d${floatBits64(value)}`;
  }
  if (t === 'f16' || t === 'f16x2' || t === 'pred') throw new Error(`PTX has no .${t} immediates; move the bits through a .b16/.b32 register`);
  if (typeof value === 'number' && !Number.isInteger(value)) throw new Error(`${value} is not an integer immediate for .${t}`);
  const big = BigInt(value);
  const bits = BigInt(sizeOf(t) * 8);
  if (t.startsWith('s')) {
    const lo = -(1n << (bits - 1n));
    const hi = (1n << (bits - 1n)) - 1n;
    if (big < lo || big > hi) throw new Error(`${value} does not fit .${t}`);
    return big.toString();
  }
  if (big < 0n) {
    // A negative immediate for an unsigned or bit type: its two's complement.
    if (big < -(1n << (bits - 1n))) throw new Error(`${value} does not fit .${t}`);
    return (big + (1n << bits)).toString();
  }
  if (big >= 1n << bits) throw new Error(`${value} does not fit .${t}`);
  return big.toString();
}

/** Renders a source operand. */
export function renderSrc(src: Reg<RegType> | Imm, t: InstrType): string {
  return src instanceof Reg ? src.name : renderImm(src, t);
}
