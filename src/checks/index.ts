// The registry: the checks that are built, sorted by id, and the catalog ids
// not built yet. Together they are exactly F001..F100 (a test checks).
import { F001 } from './F001-missing-entry-point.js';
import type { Check } from './types.js';

export const CHECKS: readonly Check[] = [
  F001,
];

/** Catalog ids with no check module yet: absent from runs, named by reports. */
export const NOT_BUILT: readonly string[] = [
  'F002', 'F003', 'F004', 'F005', 'F006', 'F007', 'F008', 'F009', 'F010',
  'F011', 'F012', 'F013', 'F014', 'F015', 'F016', 'F017', 'F018', 'F019', 'F020',
  'F021', 'F022', 'F023', 'F024', 'F025', 'F026', 'F027', 'F028', 'F029', 'F030',
  'F031', 'F032', 'F033', 'F034', 'F035', 'F036', 'F037', 'F038', 'F039', 'F040',
  'F041', 'F042', 'F043', 'F044', 'F045', 'F046', 'F047', 'F048', 'F049', 'F050',
  'F051', 'F052', 'F053', 'F054', 'F055', 'F056', 'F057', 'F058', 'F059', 'F060',
  'F061', 'F062', 'F063', 'F064', 'F065', 'F066', 'F067', 'F068', 'F069', 'F070',
  'F071', 'F072', 'F073', 'F074', 'F075', 'F076', 'F077', 'F078', 'F079', 'F080',
  'F081', 'F082', 'F083', 'F084', 'F085', 'F086', 'F087', 'F088', 'F089', 'F090',
  'F091', 'F092', 'F093', 'F094', 'F095', 'F096', 'F097', 'F098', 'F099', 'F100',
];
