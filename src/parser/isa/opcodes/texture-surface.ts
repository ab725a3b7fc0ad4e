// Texture (PTX ISA 9.7.10) and surface (9.7.11) instructions. Examples use
// unified texture mode with a .u64 handle in a register.
import type { OpcodeSpec } from '../types.js';
import { A, P, R, RI, RV, V, mods, op, types, v } from './helpers.js';

const SURF_CLAMP = mods('clamp', ['.trap', '.clamp', '.zero'], { required: true });
const SURF_GEOM = mods('geom', ['.1d', '.2d', '.3d', '.a1d', '.a2d'], {
  required: true,
  since: { '.a1d': v('5.0', 30), '.a2d': v('5.0', 30) },
});

export const TEXTURE_SURFACE_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'tex',
    section: '9.7.10.3',
    since: v('1.0'),
    modifiers: [
      mods('mode', ['.base', '.level', '.grad'], { since: { '.level': v('4.3', 30), '.grad': v('4.3', 30) } }),
      mods('geom', ['.1d', '.2d', '.3d', '.a1d', '.a2d', '.cube', '.acube', '.2dms', '.a2dms'], {
        required: true,
        since: {
          '.a1d': v('4.3', 30),
          '.a2d': v('4.3', 30),
          '.cube': v('4.3', 30),
          '.acube': v('4.3', 30),
          '.2dms': v('4.3', 30),
          '.a2dms': v('4.3', 30),
        },
      }),
      // .v2/.f16/.f16x2 predate PTX 6.3, the oldest version ptxas 13 reads.
      mods('vec', ['.v4', '.v2'], { required: true, since: { '.v2': v('4.2', 53) } }),
      types('dtype', ['.u32', '.s32', '.f16', '.f32', '.f16x2'], {
        since: { '.f16': v('4.2', 53), '.f16x2': v('4.2', 53) },
      }),
      types('ctype', ['.s32', '.f32']),
    ],
    forms: [
      [
        op('d', V, 'dtype', { pairedWith: 'p' }),
        op('a', A),
        op('e', ['reg', 'imm', 'vec'], undefined, { optional: true }),
        op('f', ['reg', 'imm', 'vec'], undefined, { optional: true }),
      ],
    ],
    example: 'tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];',
  },
  {
    opcode: 'tld4',
    section: '9.7.10.4',
    since: v('2.2', 20),
    modifiers: [
      mods('comp', ['.r', '.g', '.b', '.a'], { required: true }),
      mods('geom', ['.2d', '.a2d', '.cube', '.acube'], { required: true }),
      mods('vec', ['.v4'], { required: true }),
      types('dtype', ['.u32', '.s32', '.f32']),
      types('ctype', ['.f32']),
    ],
    forms: [
      [
        op('d', V, 'dtype', { pairedWith: 'p' }),
        op('a', A),
        op('e', ['reg', 'imm', 'vec'], undefined, { optional: true }),
        op('f', ['reg', 'imm'], undefined, { optional: true }),
      ],
    ],
    example: 'tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];',
  },
  {
    opcode: 'txq',
    section: '9.7.10.5',
    since: v('1.5'),
    modifiers: [
      mods('level', ['.level'], { since: { '.level': v('4.3', 30) } }),
      mods(
        'query',
        [
          '.width', '.height', '.depth', '.channel_data_type', '.channel_order', '.normalized_coords',
          '.array_size', '.num_mipmap_levels', '.num_samples',
          '.force_unnormalized_coords', '.filter_mode', '.addr_mode_0', '.addr_mode_1', '.addr_mode_2',
        ],
        { required: true },
      ),
      types('type', ['.b32']),
    ],
    forms: [
      [op('d', R, 'type'), op('a', A)],
      [op('d', R, 'type'), op('a', A), op('lod', RI, '.s32')],
    ],
    example: 'txq.width.b32 %r1, [%rd1];',
  },
  {
    opcode: 'istypep',
    section: '9.7.10.6',
    since: v('4.0', 30),
    modifiers: [types('type', ['.texref', '.samplerref', '.surfref'])],
    forms: [[op('p', P, '.pred'), op('a', ['reg', 'sym'])]],
    example: 'istypep.texref %p1, %rd1;',
  },
  {
    opcode: 'suld',
    section: '9.7.11.1',
    since: v('1.5'),
    modifiers: [
      mods('mode', ['.b', '.p'], { required: true }),
      SURF_GEOM,
      mods('cop', ['.ca', '.cg', '.cs', '.cv'], { since: { '.ca': v('2.0'), '.cg': v('2.0'), '.cs': v('2.0'), '.cv': v('2.0') } }),
      mods('vec', ['.v2', '.v4']),
      types('dtype', ['.b8', '.b16', '.b32', '.b64', '.u32', '.s32', '.f32']),
      SURF_CLAMP,
    ],
    forms: [[op('d', RV, 'dtype'), op('a', A)]],
    example: 'suld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];',
  },
  {
    opcode: 'sust',
    section: '9.7.11.2',
    since: v('1.5'),
    modifiers: [
      mods('mode', ['.b', '.p'], { required: true }),
      SURF_GEOM,
      mods('cop', ['.wb', '.cg', '.cs', '.wt'], { since: { '.wb': v('2.0'), '.cg': v('2.0'), '.cs': v('2.0'), '.wt': v('2.0') } }),
      mods('vec', ['.v2', '.v4']),
      types('ctype', ['.b8', '.b16', '.b32', '.b64', '.u32', '.s32', '.f32']),
      SURF_CLAMP,
    ],
    forms: [[op('a', A), op('c', RV, 'ctype')]],
    example: 'sust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r1};',
  },
  {
    opcode: 'sured',
    section: '9.7.11.3',
    since: v('2.0', 20),
    modifiers: [
      mods('mode', ['.b', '.p'], { required: true }),
      mods('op', ['.add', '.min', '.max', '.and', '.or'], { required: true }),
      mods('geom', ['.1d', '.2d', '.3d'], { required: true }),
      types('ctype', ['.u32', '.u64', '.s32', '.b32', '.s64']),
      SURF_CLAMP,
    ],
    forms: [[op('a', A), op('c', R, 'ctype')]],
    example: 'sured.b.add.2d.u32.trap [%rd1, {%r2, %r3}], %r1;',
  },
  {
    opcode: 'suq',
    section: '9.7.11.4',
    since: v('1.5'),
    modifiers: [
      mods(
        'query',
        ['.width', '.height', '.depth', '.channel_data_type', '.channel_order', '.array_size', '.memory_layout'],
        { required: true },
      ),
      types('type', ['.b32']),
    ],
    forms: [[op('d', R, 'type'), op('a', A)]],
    example: 'suq.width.b32 %r1, [%rd1];',
  },
];
