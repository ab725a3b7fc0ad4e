// gemm_swizzled: the tiled GEMM with an XOR-swizzled A tile (bank-conflict-free, no padding).
import { tiledGemm } from './gemm-tiled-family.js';

export const gemmSwizzled = tiledGemm('gemm_swizzled', 'swizzled', []);
