// The PTX ISA opcode table: every family's entries, sorted by opcode, and a
// Map-backed lookup. The table is data; see ../types.ts for its shape.
import type { OpcodeSpec } from '../types.js';
import { ARITH_OPCODES } from './arith.js';
import { COMPARE_SELECT_OPCODES } from './compare-select.js';
import { CONTROL_FLOW_OPCODES } from './control-flow.js';
import { DATA_MOVEMENT_OPCODES } from './data-movement.js';
import { FLOAT_OPCODES } from './float.js';
import { INTEGER_OPCODES } from './integer.js';
import { LOGIC_SHIFT_OPCODES } from './logic-shift.js';
import { MISC_OPCODES } from './misc.js';
import { SYNC_COMM_OPCODES } from './sync-comm.js';
import { TCGEN05_OPCODES } from './tcgen05.js';
import { TEXTURE_SURFACE_OPCODES } from './texture-surface.js';
import { VIDEO_OPCODES } from './video.js';
import { WARP_MATRIX_OPCODES } from './warp-matrix.js';
import { WGMMA_OPCODES } from './wgmma.js';

/** The newest PTX ISA version the table covers. */
export const ISA_TABLE_VERSION = '9.0';

/** Every opcode family, in manual order. */
export const OPCODE_FAMILIES: Readonly<Record<string, readonly OpcodeSpec[]>> = {
  integer: INTEGER_OPCODES,
  arith: ARITH_OPCODES,
  float: FLOAT_OPCODES,
  'compare-select': COMPARE_SELECT_OPCODES,
  'logic-shift': LOGIC_SHIFT_OPCODES,
  'data-movement': DATA_MOVEMENT_OPCODES,
  'texture-surface': TEXTURE_SURFACE_OPCODES,
  'control-flow': CONTROL_FLOW_OPCODES,
  'sync-comm': SYNC_COMM_OPCODES,
  'warp-matrix': WARP_MATRIX_OPCODES,
  wgmma: WGMMA_OPCODES,
  tcgen05: TCGEN05_OPCODES,
  video: VIDEO_OPCODES,
  misc: MISC_OPCODES,
};

/** All opcodes, sorted by opcode name (code-unit order). */
export const OPCODES: readonly OpcodeSpec[] = Object.values(OPCODE_FAMILIES)
  .flat()
  .sort((a, b) => (a.opcode < b.opcode ? -1 : a.opcode > b.opcode ? 1 : 0));

const BY_NAME: ReadonlyMap<string, OpcodeSpec> = new Map(OPCODES.map((s) => [s.opcode, s]));

/** The entry for an opcode name exactly as the table spells it ("ld", "cp.async.bulk.tensor"). */
export function lookupOpcode(name: string): OpcodeSpec | undefined {
  return BY_NAME.get(name);
}
