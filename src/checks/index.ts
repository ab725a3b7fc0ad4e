// The registry: the checks that are built, sorted by id, and the catalog ids
// not built yet. Together they are exactly F001..F100 (a test checks).
import { F001 } from './F001-missing-entry-point.js';
import { F002 } from './F002-header-directives.js';
import { F003 } from './F003-address-size.js';
import { F004 } from './F004-duplicate-label.js';
import { F005 } from './F005-undefined-target.js';
import { F006 } from './F006-undeclared-register.js';
import { F007 } from './F007-operand-shape.js';
import { F008 } from './F008-isa-version-target.js';
import { F009 } from './F009-unknown-opcode.js';
import { F010 } from './F010-encoding.js';
import { F011 } from './F011-register-type-mismatch.js';
import { F012 } from './F012-ld-st-operand-size.js';
import { F013 } from './F013-mixed-width-arithmetic.js';
import { F014 } from './F014-predicate-typing.js';
import { F015 } from './F015-invalid-conversion.js';
import { F016 } from './F016-address-register-width.js';
import { F017 } from './F017-predicate-misuse.js';
import { F018 } from './F018-vector-operand-shape.js';
import { F019 } from './F019-atomic-type.js';
import { F020 } from './F020-special-register-misuse.js';
import type { Check } from './types.js';

export const CHECKS: readonly Check[] = [
  F001,
  F002,
  F003,
  F004,
  F005,
  F006,
  F007,
  F008,
  F009,
  F010,
  F011,
  F012,
  F013,
  F014,
  F015,
  F016,
  F017,
  F018,
  F019,
  F020,
];

/** Catalog ids with no check module yet: absent from runs, named by reports. */
export const NOT_BUILT: readonly string[] = [
  'F021', 'F022', 'F023', 'F024', 'F025', 'F026', 'F027', 'F028', 'F029', 'F030',
  'F031', 'F032', 'F033', 'F034', 'F035', 'F036', 'F037', 'F038', 'F039', 'F040',
  'F041', 'F042', 'F043', 'F044', 'F045', 'F046', 'F047', 'F048', 'F049', 'F050',
  'F051', 'F052', 'F053', 'F054', 'F055', 'F056', 'F057', 'F058', 'F059', 'F060',
  'F061', 'F062', 'F063', 'F064', 'F065', 'F066', 'F067', 'F068', 'F069', 'F070',
  'F071', 'F072', 'F073', 'F074', 'F075', 'F076', 'F077', 'F078', 'F079', 'F080',
  'F081', 'F082', 'F083', 'F084', 'F085', 'F086', 'F087', 'F088', 'F089', 'F090',
  'F091', 'F092', 'F093', 'F094', 'F095', 'F096', 'F097', 'F098', 'F099', 'F100',
];
