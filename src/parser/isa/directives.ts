// PTX directives as data: each dot-keyword the grammar treats specially, the
// role it plays, and the version/target that introduced it. The lexer reads
// one generic dotted token; the keyword classifier re-types it from this table.
import type { Availability } from './types.js';

/** The grammar role of a directive keyword. */
export type DirectiveRole =
  | 'version' | 'target' | 'address_size' | 'file' | 'loc' | 'section' | 'pragma'
  | 'alias' | 'entry' | 'func' | 'linkage' | 'state_space' | 'align' | 'attribute'
  | 'function_directive' | 'branchtargets' | 'calltargets' | 'callprototype';

export interface DirectiveSpec {
  readonly name: string;
  readonly role: DirectiveRole;
  readonly since: Availability;
}

const d = (name: string, role: DirectiveRole, ptx: `${number}.${number}`, sm?: number): DirectiveSpec =>
  sm === undefined ? { name, role, since: { ptx } } : { name, role, since: { ptx, sm } };

export const DIRECTIVES: readonly DirectiveSpec[] = [
  d('.address_size', 'address_size', '2.3'),
  d('.alias', 'alias', '6.3', 30),
  d('.align', 'align', '1.0'),
  d('.attribute', 'attribute', '4.0', 20),
  d('.blocksareclusters', 'function_directive', '9.0', 90),
  d('.branchtargets', 'branchtargets', '2.1'),
  d('.callprototype', 'callprototype', '2.1'),
  d('.calltargets', 'calltargets', '2.1'),
  d('.common', 'linkage', '5.0'),
  d('.const', 'state_space', '1.0'),
  d('.entry', 'entry', '1.0'),
  d('.explicitcluster', 'function_directive', '7.8', 90),
  d('.extern', 'linkage', '1.0'),
  d('.file', 'file', '1.0'),
  d('.func', 'func', '1.0'),
  d('.global', 'state_space', '1.0'),
  d('.loc', 'loc', '1.0'),
  d('.local', 'state_space', '1.0'),
  d('.maxclusterrank', 'function_directive', '7.8', 90),
  d('.maxnctapersm', 'function_directive', '2.0'),
  d('.maxnreg', 'function_directive', '1.3'),
  d('.maxntid', 'function_directive', '1.3'),
  d('.minnctapersm', 'function_directive', '2.0', 20),
  d('.noreturn', 'function_directive', '6.4', 30),
  d('.param', 'state_space', '1.0'),
  d('.pragma', 'pragma', '2.0'),
  d('.reg', 'state_space', '1.0'),
  d('.reqnctapercluster', 'function_directive', '7.8', 90),
  d('.reqntid', 'function_directive', '2.1'),
  d('.section', 'section', '2.0'),
  d('.shared', 'state_space', '1.0'),
  d('.sreg', 'state_space', '1.0'),
  d('.target', 'target', '1.0'),
  d('.tex', 'state_space', '1.0'),
  d('.version', 'version', '1.0'),
  d('.visible', 'linkage', '1.0'),
  d('.weak', 'linkage', '3.1'),
  d('.abi_preserve', 'function_directive', '9.0'),
  d('.abi_preserve_control', 'function_directive', '9.0'),
];

export const DIRECTIVE_BY_NAME: ReadonlyMap<string, DirectiveSpec> = new Map(
  DIRECTIVES.map((s) => [s.name, s]),
);
