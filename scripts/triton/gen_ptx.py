"""Compile a few Triton kernels of our own on a GPU machine and save the PTX
Triton generates (with its .loc line information), plus Triton's cache
directory, as fixtures for ptx-debug. Usage: python3 gen_ptx.py OUTDIR"""
import os
import shutil
import sys

import torch
import triton
import triton.language as tl

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(OUT, "cache"))


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, num / den, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def layer_norm(x_ptr, y_ptr, w_ptr, b_ptr, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, d * rstd * w + b, mask=mask)


@triton.jit
def histogram(x_ptr, hist_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(hist_ptr + (x % BINS), 1, mask=mask)


def save(name, compiled):
    ptx = compiled.asm["ptx"]
    with open(os.path.join(OUT, f"triton-{name}.ptx"), "w") as f:
        f.write(ptx)
    print(name, len(ptx), "bytes of PTX")


dev = "cuda"
n = 4099
x = torch.randn(n, device=dev)
y = torch.randn(n, device=dev)
o = torch.empty_like(x)
save("vector_add", vector_add[(triton.cdiv(n, 1024),)](x, y, o, n, BLOCK=1024))
assert torch.allclose(o, x + y)

a = torch.randn(37, 781, device=dev)
s = torch.empty_like(a)
save("softmax_rows", softmax_rows[(37,)](s, a, a.stride(0), s.stride(0), 781, BLOCK=1024))
assert torch.allclose(s, torch.softmax(a, dim=1), atol=1e-5)

A = torch.randn(200, 96, device=dev, dtype=torch.float16)
B = torch.randn(96, 150, device=dev, dtype=torch.float16)
C = torch.empty(200, 150, device=dev, dtype=torch.float16)
grid = (triton.cdiv(200, 64), triton.cdiv(150, 64))
save("matmul", matmul[grid](A, B, C, 200, 150, 96, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1), BM=64, BN=64, BK=32))
assert torch.allclose(C.float(), (A.float() @ B.float()), atol=0.1, rtol=0.02)

X = torch.randn(64, 300, device=dev)
Y = torch.empty_like(X)
W = torch.randn(300, device=dev)
Bv = torch.randn(300, device=dev)
save("layer_norm", layer_norm[(64,)](X, Y, W, Bv, X.stride(0), 300, 1e-5, BLOCK=512))
assert torch.allclose(Y, torch.nn.functional.layer_norm(X, (300,), W, Bv, 1e-5), atol=1e-4)

xi = torch.randint(0, 1000, (5000,), device=dev, dtype=torch.int32)
h = torch.zeros(64, device=dev, dtype=torch.int32)
save("histogram", histogram[(triton.cdiv(5000, 256),)](xi, h, 5000, BINS=64, BLOCK=256))
assert int(h.sum()) == 5000

print("triton", triton.__version__, "torch", torch.__version__, torch.cuda.get_device_name())
shutil.make_archive(os.path.join(OUT, "triton-cache"), "gztar", os.environ["TRITON_CACHE_DIR"])
