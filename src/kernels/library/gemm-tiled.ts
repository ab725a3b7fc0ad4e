// gemm_tiled: shared-memory tiles with a transposed A tile (bank-conflicted store).
import { TILED_DEFECTS, tiledGemm } from './gemm-tiled-family.js';

export const gemmTiled = tiledGemm('gemm_tiled', 'plain', TILED_DEFECTS);
