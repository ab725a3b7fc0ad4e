// The ISA's type-compatibility rules as data and two small predicates:
// whether a register of one type may stand where an instruction type is
// expected, and the relaxed rule for ld/st/cvt operands wider than the type.

export type TypeClass = 'bit' | 'signed' | 'unsigned' | 'float' | 'pred' | 'packed';

export interface TypeInfo {
  readonly cls: TypeClass;
  /** Size in bits. */
  readonly bits: number;
}

export const TYPES: ReadonlyMap<string, TypeInfo> = new Map<string, TypeInfo>([
  ['.b8', { cls: 'bit', bits: 8 }], ['.b16', { cls: 'bit', bits: 16 }], ['.b32', { cls: 'bit', bits: 32 }],
  ['.b64', { cls: 'bit', bits: 64 }], ['.b128', { cls: 'bit', bits: 128 }],
  ['.s8', { cls: 'signed', bits: 8 }], ['.s16', { cls: 'signed', bits: 16 }], ['.s32', { cls: 'signed', bits: 32 }], ['.s64', { cls: 'signed', bits: 64 }],
  ['.u8', { cls: 'unsigned', bits: 8 }], ['.u16', { cls: 'unsigned', bits: 16 }], ['.u32', { cls: 'unsigned', bits: 32 }], ['.u64', { cls: 'unsigned', bits: 64 }],
  ['.f16', { cls: 'float', bits: 16 }], ['.bf16', { cls: 'float', bits: 16 }], ['.f32', { cls: 'float', bits: 32 }], ['.f64', { cls: 'float', bits: 64 }],
  ['.tf32', { cls: 'float', bits: 32 }],
  // Packed small types live in bit-size registers of their total width.
  ['.f16x2', { cls: 'packed', bits: 32 }], ['.bf16x2', { cls: 'packed', bits: 32 }],
  ['.e4m3x2', { cls: 'packed', bits: 16 }], ['.e5m2x2', { cls: 'packed', bits: 16 }],
  ['.e2m3x2', { cls: 'packed', bits: 16 }], ['.e3m2x2', { cls: 'packed', bits: 16 }], ['.e2m1x2', { cls: 'packed', bits: 8 }],
  ['.ue8m0x2', { cls: 'packed', bits: 16 }],
  ['.pred', { cls: 'pred', bits: 1 }],
]);

/**
 * Whether a register declared `regType` may be an operand of an instruction
 * of type `instrType` (PTX ISA "Type checking"): identical types; bit-size
 * types match any type of the same size; signed and unsigned integers of the
 * same size interchange; `.f16`/`.bf16` values live in `.b16` registers and
 * packed pairs in `.b32`. Unknown types are not judged here (true).
 */
export function typeCompatible(instrType: string, regType: string): boolean {
  if (instrType === regType) return true;
  const a = TYPES.get(instrType);
  const b = TYPES.get(regType);
  if (a === undefined || b === undefined) return true;
  if (a.cls === 'pred' || b.cls === 'pred') return false;
  if (a.bits !== b.bits) return false;
  if (a.cls === 'bit' || b.cls === 'bit') return true;
  if ((a.cls === 'signed' || a.cls === 'unsigned') && (b.cls === 'signed' || b.cls === 'unsigned')) return true;
  return false;
}

/**
 * The relaxed rule for `ld`, `st` and `cvt` (PTX ISA "Operand size exceeding
 * instruction-type size"): a register may be wider than the instruction type
 * when both are integer types (the value is extended or truncated), when the
 * instruction type is a bit type (ptxas accepts `ld.b16` into an `.f32`
 * register), or when the register is a bit type (ptxas accepts `ld.f32` into
 * a `.b64` register and `cvt.rn.f16.f32` into a `.b32` one). A floating-point
 * value never goes into a wider typed register, nor an integer into a
 * floating-point one. A narrower register is never allowed.
 */
export function wideRegisterAllowed(instrType: string, regType: string): boolean {
  if (typeCompatible(instrType, regType)) return true;
  const a = TYPES.get(instrType);
  const b = TYPES.get(regType);
  if (a === undefined || b === undefined) return true;
  if (b.bits < a.bits || a.cls === 'pred' || b.cls === 'pred') return false;
  if (a.cls === 'bit' || b.cls === 'bit') return true;
  const int = (c: TypeClass): boolean => c === 'signed' || c === 'unsigned';
  return int(a.cls) && int(b.cls);
}
