// Floating-point instructions (PTX ISA 9.7.3) that are not shared with the
// integer section, with the half-precision (9.7.4) and mixed-precision
// (9.7.5) variants of fma, ex2 and tanh folded in.
import type { OpcodeSpec } from '../types.js';
import { P, R, RI, RND, mods, op, ternary, types, unary, v } from './helpers.js';

function approxOnly(
  opcode: string,
  section: string,
  example: string,
): OpcodeSpec {
  return {
    opcode,
    section,
    since: v('1.0'),
    modifiers: [mods('approx', ['.approx'], { required: true }), mods('ftz', ['.ftz']), types('type', ['.f32'])],
    forms: [unary()],
    example,
  };
}

export const FLOAT_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'testp',
    section: '9.7.3.1',
    since: v('2.0', 20),
    modifiers: [
      mods('op', ['.finite', '.infinite', '.number', '.notanumber', '.normal', '.subnormal'], { required: true }),
      types('type', ['.f32', '.f64']),
    ],
    forms: [[op('p', P, '.pred'), op('a', RI, 'type')]],
    example: 'testp.notanumber.f32 %p1, %f1;',
  },
  {
    opcode: 'copysign',
    section: '9.7.3.2',
    since: v('2.0', 20),
    modifiers: [types('type', ['.f32', '.f64'])],
    forms: [[op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, 'type')]],
    example: 'copysign.f32 %f1, %f2, %f3;',
  },
  {
    opcode: 'fma',
    section: '9.7.3.6',
    since: v('2.0', 20),
    modifiers: [
      mods('rnd', RND, { required: true }),
      mods('ftz', ['.ftz']),
      mods('sat', ['.sat']),
      mods('oob', ['.oob'], { since: { '.oob': v('8.1', 90) } }),
      mods('relu', ['.relu'], { since: { '.relu': v('7.0', 80) } }),
      types('type', ['.f16', '.f16x2', '.bf16', '.bf16x2', '.f32', '.f32x2', '.f64'], {
        since: {
          '.f16': v('4.2', 53),
          '.f16x2': v('4.2', 53),
          '.bf16': v('7.0', 80),
          '.bf16x2': v('7.0', 80),
          '.f32x2': v('8.6', 100),
        },
      }),
      // Mixed precision (9.7.5.3): fma.rn.f32.f16 d, a, b, c with a, b of abtype.
      types('abtype', ['.f16', '.bf16'], {
        required: false,
        since: { '.f16': v('8.6', 100), '.bf16': v('8.6', 100) },
      }),
    ],
    forms: [
      ternary(),
      [op('d', R, 'type'), op('a', RI, 'abtype'), op('b', RI, 'abtype'), op('c', RI, 'type')],
    ],
    example: 'fma.rn.f32 %f1, %f2, %f3, %f4;',
  },
  {
    opcode: 'rcp',
    section: '9.7.3.13',
    since: v('1.0'),
    modifiers: [
      mods('approx', ['.approx']),
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      types('type', ['.f32', '.f64']),
    ],
    forms: [unary()],
    example: 'rcp.approx.ftz.f64 %fd1, %fd2;',
  },
  {
    opcode: 'sqrt',
    section: '9.7.3.15',
    since: v('1.0'),
    modifiers: [
      mods('approx', ['.approx']),
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      types('type', ['.f32', '.f64']),
    ],
    forms: [unary()],
    example: 'sqrt.rn.f32 %f1, %f2;',
  },
  {
    opcode: 'rsqrt',
    section: '9.7.3.16',
    since: v('1.0'),
    modifiers: [mods('approx', ['.approx'], { required: true }), mods('ftz', ['.ftz']), types('type', ['.f32', '.f64'])],
    forms: [unary()],
    example: 'rsqrt.approx.f32 %f1, %f2;',
  },
  approxOnly('sin', '9.7.3.18', 'sin.approx.f32 %f1, %f2;'),
  approxOnly('cos', '9.7.3.19', 'cos.approx.ftz.f32 %f1, %f2;'),
  approxOnly('lg2', '9.7.3.20', 'lg2.approx.f32 %f1, %f2;'),
  {
    opcode: 'ex2',
    section: '9.7.3.21',
    since: v('1.0'),
    modifiers: [
      mods('approx', ['.approx'], { required: true }),
      mods('ftz', ['.ftz']),
      types('type', ['.f32', '.f16', '.f16x2', '.bf16', '.bf16x2'], {
        since: {
          '.f16': v('7.0', 75),
          '.f16x2': v('7.0', 75),
          '.bf16': v('7.8', 90),
          '.bf16x2': v('7.8', 90),
        },
      }),
    ],
    forms: [unary()],
    example: 'ex2.approx.ftz.f32 %f1, %f2;',
  },
  {
    opcode: 'tanh',
    section: '9.7.3.22',
    since: v('7.0', 75),
    modifiers: [
      mods('approx', ['.approx'], { required: true }),
      types('type', ['.f32', '.f16', '.f16x2', '.bf16', '.bf16x2'], {
        since: { '.bf16': v('7.8', 90), '.bf16x2': v('7.8', 90) },
      }),
    ],
    forms: [unary()],
    example: 'tanh.approx.f32 %f1, %f2;',
  },
];
