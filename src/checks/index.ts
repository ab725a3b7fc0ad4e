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
import { F021 } from './F021-generic-shared-address.js';
import { F022 } from './F022-shared-u64-address.js';
import { F023 } from './F023-shared-window-as-generic.js';
import { F024 } from './F024-provenance-mismatch.js';
import { F025 } from './F025-local-static-oob.js';
import { F026 } from './F026-const-write.js';
import { F027 } from './F027-param-write.js';
import { F028 } from './F028-shared-static-oob.js';
import { F029 } from './F029-missing-cvta-to-global.js';
import { F030 } from './F030-mixed-space-access.js';
import { F031 } from './F031-texture-surface-ref.js';
import { F032 } from './F032-extern-shared-alignment.js';
import { F033 } from './F033-variable-alignment.js';
import { F034 } from './F034-shared-capacity.js';
import { F035 } from './F035-unused-shared.js';
import { F036 } from './F036-missing-barrier-raw.js';
import { F037 } from './F037-missing-barrier-war.js';
import { F038 } from './F038-barrier-divergence.js';
import { F039 } from './F039-barrier-thread-count.js';
import { F040 } from './F040-named-barrier-pairing.js';
import { F041 } from './F041-barrier-in-divergent-loop.js';
import { F042 } from './F042-warp-sync-mask.js';
import { F043 } from './F043-legacy-warp-synchronous.js';
import { F044 } from './F044-missing-release-fence.js';
import { F045 } from './F045-weak-spin-wait.js';
import { F046 } from './F046-global-rmw-race.js';
import { F047 } from './F047-mbarrier-protocol.js';
import { F048 } from './F048-async-copy-wait.js';
import { F049 } from './F049-warp-role-cta-barrier.js';
import { F050 } from './F050-exit-before-shuffle.js';
import { F051 } from './F051-unaligned-access.js';
import { F052 } from './F052-shared-bank-conflict.js';
import { F053 } from './F053-uncoalesced-global.js';
import { F054 } from './F054-shared-dynamic-oob.js';
import { F055 } from './F055-local-dynamic-index.js';
import { F056 } from './F056-nc-load-aliasing.js';
import { F057 } from './F057-scope-too-narrow.js';
import { F058 } from './F058-uninitialized-shared-read.js';
import { F059 } from './F059-atomic-alignment.js';
import { F060 } from './F060-missing-proxy-fence.js';
import { F061 } from './F061-missing-terminator.js';
import { F062 } from './F062-unreachable-code.js';
import { F063 } from './F063-infinite-loop.js';
import { F064 } from './F064-recursion.js';
import { F065 } from './F065-indirect-branch.js';
import { F066 } from './F066-call-signature.js';
import { F067 } from './F067-uni-on-divergent.js';
import { F068 } from './F068-divergent-branch-in-loop.js';
import { F069 } from './F069-irreducible-cfg.js';
import { F070 } from './F070-debug-break-left.js';
import { F071 } from './F071-use-before-def.js';
import { F072 } from './F072-unused-param.js';
import { F073 } from './F073-dead-store.js';
import { F074 } from './F074-lost-loop-update.js';
import { F075 } from './F075-param-load-width.js';
import { F076 } from './F076-register-pressure.js';
import { F077 } from './F077-index-overflow.js';
import { F078 } from './F078-missing-bounds-check.js';
import { F079 } from './F079-zero-extended-signed-offset.js';
import { F080 } from './F080-low-precision-accumulator.js';
import { F081 } from './F081-loaded-value-store.js';
import { F082 } from './F082-computed-address-from-loaded.js';
import { F083 } from './F083-cvta-shared-in-loop.js';
import { F084 } from './F084-loop-branch-to-end.js';
import { F085 } from './F085-shuffle-operands.js';
import { F086 } from './F086-placeholder-kernel.js';
import { F087 } from './F087-deprecated-feature.js';
import { F088 } from './F088-tensor-core-consistency.js';
import { F089 } from './F089-async-copy-constraints.js';
import { F090 } from './F090-half-memory-type.js';
import { F091 } from './F091-register-spills.js';
import { F092 } from './F092-low-occupancy.js';
import { F093 } from './F093-redundant-barrier.js';
import { F094 } from './F094-redundant-fence.js';
import { F095 } from './F095-narrow-global-loop.js';
import { F096 } from './F096-missing-debug-instrumentation.js';
import { F097 } from './F097-marker-uniqueness.js';
import { F098 } from './F098-marker-protocol.js';
import { F099 } from './F099-marker-bounds.js';
import { F100 } from './F100-line-info.js';
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
  F021,
  F022,
  F023,
  F024,
  F025,
  F026,
  F027,
  F028,
  F029,
  F030,
  F031,
  F032,
  F033,
  F034,
  F035,
  F036,
  F037,
  F038,
  F039,
  F040,
  F041,
  F042,
  F043,
  F044,
  F045,
  F046,
  F047,
  F048,
  F049,
  F050,
  F051,
  F052,
  F053,
  F054,
  F055,
  F056,
  F057,
  F058,
  F059,
  F060,
  F061,
  F062,
  F063,
  F064,
  F065,
  F066,
  F067,
  F068,
  F069,
  F070,
  F071,
  F072,
  F073,
  F074,
  F075,
  F076,
  F077,
  F078,
  F079,
  F080,
  F081,
  F082,
  F083,
  F084,
  F085,
  F086,
  F087,
  F088,
  F089,
  F090,
  F091,
  F092,
  F093,
  F094,
  F095,
  F096,
  F097,
  F098,
  F099,
  F100,
];

/** Catalog ids with no check module yet: absent from runs, named by reports. */
export const NOT_BUILT: readonly string[] = [];
