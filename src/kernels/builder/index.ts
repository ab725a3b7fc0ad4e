// The typed PTX builder: what kernels import.
export { Reg, renderImm, sizeOf } from './types.js';
export type {
  Accepts, Addr32, Addr64, ArithType, BitType, F32, FloatType, Imm, InstrType, IntType, LoadedType, Pred, RegType, S32, Src, U32, U64, B16,
} from './types.js';
export { FunctionBuilder } from './function.js';
export type { AtomOp, Cmp, FuncHandle, GlobalSpace, Label, LoadOptions, LoopControl, Param, ParamType, SharedVar, ShflMode, SpecialReg } from './function.js';
export { ARCHS, MIN_PTX_VERSION, PtxModule, isArch } from './module.js';
export type { Arch, KernelOptions, ModuleOptions } from './module.js';
export { blockReduce, warpReduce } from './warp.js';
export type { ReduceOp } from './warp.js';
