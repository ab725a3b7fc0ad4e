// gemm_tiled_padded: the tiled GEMM with the A tile padded to stride 33 (bank-conflict-free).
import { tiledGemm } from './gemm-tiled-family.js';

export const gemmTiledPadded = tiledGemm('gemm_tiled_padded', 'padded', []);
