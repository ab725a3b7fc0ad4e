import { readFileSync } from 'node:fs';
import { F010 } from '../../src/checks/F010-encoding.js';
import { checkCases } from './harness.js';

const H = '.version 7.8\n.target sm_90\n.address_size 64\n';
const K = '.entry k()\n{\n\tret;\n}\n';

checkCases(F010, {
  fails: [
    { name: 'a byte-order mark', ptx: `\uFEFF${H}${K}`, lines: [1] },
    { name: 'an accented letter in a line comment', ptx: `${H}// caf\u00e9\n${K}`, lines: [4] },
    { name: 'a typographic quote on the second line of a block comment', ptx: `${H}/* one\n   \u201ctwo\u201d */\n${K}`, lines: [5] },
    { name: 'invalid UTF-8 (decoded as U+FFFD) in a comment', ptx: `${H}${K.replace('ret;', 'ret; // \uFFFD')}`, lines: [6] },
    { name: 'a non-ASCII .file path', ptx: `${H}.file 1 "/src/na\u00efve.cu"\n${K}`, lines: [4] },
    { name: 'a BOM and a comment: two findings', ptx: `\uFEFF${H}// \u00b5s\n${K}`, lines: [1, 4] },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'debug sections, .file and .pragma strings', ptx: readFileSync('fixtures/corpus/handwritten/debug_sections_loc.ptx', 'utf8') },
    { name: 'CRLF line ends', ptx: readFileSync('fixtures/corpus/handwritten/lexical_crlf.ptx', 'utf8') },
  ],
});
