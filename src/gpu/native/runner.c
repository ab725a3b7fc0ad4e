/*
 * ptx-debug's native runner: loads a PTX module through the CUDA driver API
 * (libcuda.so.1 opened with dlopen, so it builds without CUDA headers), fills
 * buffers, launches one kernel, times it with events, and writes captured
 * buffers to files. It reads a plan written by src/gpu/plan.ts (one directive
 * per line) and prints one JSON object on standard output.
 *
 *   ptx <path>                    kernel <name>
 *   grid X Y Z                    block X Y Z
 *   shared <bytes>                timeout <seconds>
 *   buffer <bytes> <fill> <capture-path|->
 *       fill: zeros | const <u32> | iota_u32 | iota_f32 | random_u32 <seed> | random_f32 <seed> | file <path>
 *   debug <words> <capture-path>  a buffer in mapped, pinned host memory
 *                                 (survives a faulting kernel); passed as u64
 *   scalar <u32|s32|u64|s64|f32|f64> <value>
 *
 * Arguments are passed to the kernel in the order of buffer/debug/scalar lines.
 * Exit status: 0 ran (see "status"), 2 bad plan, 3 no driver.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUevent;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

#define MAX_ARGS 64
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6
#define CU_MEMHOSTALLOC_DEVICEMAP 2
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CUDA_ERROR_NOT_READY 600

static CUresult (*p_cuInit)(unsigned);
static CUresult (*p_cuDriverGetVersion)(int *);
static CUresult (*p_cuDeviceGet)(CUdevice *, int);
static CUresult (*p_cuDeviceGetName)(char *, int, CUdevice);
static CUresult (*p_cuCtxCreate)(CUcontext *, unsigned, CUdevice);
static CUresult (*p_cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
static CUresult (*p_cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*p_cuFuncSetAttribute)(CUfunction, int, int);
static CUresult (*p_cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*p_cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*p_cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*p_cuMemHostAlloc)(void **, size_t, unsigned);
static CUresult (*p_cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
static CUresult (*p_cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void **, void **);
static CUresult (*p_cuEventCreate)(CUevent *, unsigned);
static CUresult (*p_cuEventRecord)(CUevent, CUstream);
static CUresult (*p_cuEventQuery)(CUevent);
static CUresult (*p_cuEventElapsedTime)(float *, CUevent, CUevent);
static CUresult (*p_cuCtxSynchronize)(void);
static CUresult (*p_cuGetErrorName)(CUresult, const char **);

enum kind { BUF, DEBUG, SCALAR };
struct arg {
  enum kind kind;
  size_t bytes;
  char fill[32];
  unsigned long long fillValue;
  char fillPath[1024];
  char capture[1024];
  void *host;
  CUdeviceptr dev;
  unsigned char scalar[8];
  size_t scalarSize;
};

static struct arg args[MAX_ARGS];
static int nargs;
static char ptxPath[1024], kernelName[512];
static unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, sharedBytes;
static double timeoutSeconds = 30;

static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
    else putchar(*s);
  }
  putchar('"');
}

static const char *errname(CUresult r) {
  const char *n = "CUDA_ERROR_UNKNOWN";
  if (p_cuGetErrorName) p_cuGetErrorName(r, &n);
  return n;
}

static void finish(const char *status, CUresult code, const char *detail, double ms) {
  printf("{\"status\":");
  json_string(status);
  printf(",\"code\":%d,\"error\":", code);
  json_string(code == 0 ? "" : errname(code));
  printf(",\"detail\":");
  json_string(detail ? detail : "");
  printf(",\"ms\":%.6f}\n", ms);
  fflush(stdout);
}

static int load_driver(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h) return 0;
#define SYM(var, name) if (!(*(void **)&var = dlsym(h, name))) return 0
  SYM(p_cuInit, "cuInit");
  SYM(p_cuDriverGetVersion, "cuDriverGetVersion");
  SYM(p_cuDeviceGet, "cuDeviceGet");
  SYM(p_cuDeviceGetName, "cuDeviceGetName");
  SYM(p_cuCtxCreate, "cuCtxCreate_v2");
  SYM(p_cuModuleLoadDataEx, "cuModuleLoadDataEx");
  SYM(p_cuModuleGetFunction, "cuModuleGetFunction");
  SYM(p_cuFuncSetAttribute, "cuFuncSetAttribute");
  SYM(p_cuMemAlloc, "cuMemAlloc_v2");
  SYM(p_cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  SYM(p_cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  SYM(p_cuMemHostAlloc, "cuMemHostAlloc");
  SYM(p_cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
  SYM(p_cuLaunchKernel, "cuLaunchKernel");
  SYM(p_cuEventCreate, "cuEventCreate");
  SYM(p_cuEventRecord, "cuEventRecord");
  SYM(p_cuEventQuery, "cuEventQuery");
  SYM(p_cuEventElapsedTime, "cuEventElapsedTime");
  SYM(p_cuCtxSynchronize, "cuCtxSynchronize");
  SYM(p_cuGetErrorName, "cuGetErrorName");
#undef SYM
  return 1;
}

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  fclose(f);
  if (buf) { buf[n] = 0; if (size) *size = (size_t)n; }
  return buf;
}

static int parse_plan(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[4096];
  while (fgets(line, sizeof line, f)) {
    char key[32] = {0};
    if (sscanf(line, "%31s", key) != 1) continue;
    struct arg *a = &args[nargs];
    if (!strcmp(key, "ptx")) sscanf(line, "%*s %1023s", ptxPath);
    else if (!strcmp(key, "kernel")) sscanf(line, "%*s %511s", kernelName);
    else if (!strcmp(key, "grid")) sscanf(line, "%*s %u %u %u", &grid[0], &grid[1], &grid[2]);
    else if (!strcmp(key, "block")) sscanf(line, "%*s %u %u %u", &block[0], &block[1], &block[2]);
    else if (!strcmp(key, "shared")) sscanf(line, "%*s %u", &sharedBytes);
    else if (!strcmp(key, "timeout")) sscanf(line, "%*s %lf", &timeoutSeconds);
    else if (!strcmp(key, "buffer") || !strcmp(key, "debug")) {
      if (nargs >= MAX_ARGS) return 0;
      memset(a, 0, sizeof *a);
      if (!strcmp(key, "debug")) {
        unsigned long long words = 0;
        a->kind = DEBUG;
        if (sscanf(line, "%*s %llu %1023s", &words, a->capture) != 2) return 0;
        a->bytes = (size_t)words * 4;
        strcpy(a->fill, "zeros");
      } else {
        char rest[3072] = {0};
        a->kind = BUF;
        if (sscanf(line, "%*s %zu %31s %3071[^\n]", &a->bytes, a->fill, rest) < 2) return 0;
        if (!strcmp(a->fill, "const") || !strncmp(a->fill, "random", 6)) {
          if (sscanf(rest, "%llu %1023s", &a->fillValue, a->capture) < 1) return 0;
        } else if (!strcmp(a->fill, "file")) {
          if (sscanf(rest, "%1023s %1023s", a->fillPath, a->capture) < 1) return 0;
        } else {
          sscanf(rest, "%1023s", a->capture);
        }
      }
      nargs++;
    } else if (!strcmp(key, "scalar")) {
      char type[8] = {0}, value[128] = {0};
      if (nargs >= MAX_ARGS || sscanf(line, "%*s %7s %127s", type, value) != 2) return 0;
      memset(a, 0, sizeof *a);
      a->kind = SCALAR;
      if (!strcmp(type, "u32") || !strcmp(type, "s32")) { int32_t v = (int32_t)strtoll(value, NULL, 0); memcpy(a->scalar, &v, 4); a->scalarSize = 4; }
      else if (!strcmp(type, "u64") || !strcmp(type, "s64")) { int64_t v = (int64_t)strtoull(value, NULL, 0); memcpy(a->scalar, &v, 8); a->scalarSize = 8; }
      else if (!strcmp(type, "f32")) { float v = strtof(value, NULL); memcpy(a->scalar, &v, 4); a->scalarSize = 4; }
      else if (!strcmp(type, "f64")) { double v = strtod(value, NULL); memcpy(a->scalar, &v, 8); a->scalarSize = 8; }
      else return 0;
      nargs++;
    } else if (key[0] != '#') return 0;
  }
  fclose(f);
  return ptxPath[0] && kernelName[0];
}

static uint32_t xorshift(uint64_t *s) {
  *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
  return (uint32_t)(*s >> 11);
}

static int fill(struct arg *a) {
  uint32_t *w = (uint32_t *)a->host;
  size_t words = a->bytes / 4;
  uint64_t seed = a->fillValue * 2654435761ULL + 88172645463325252ULL;
  if (!strcmp(a->fill, "zeros")) memset(a->host, 0, a->bytes);
  else if (!strcmp(a->fill, "const")) for (size_t i = 0; i < words; i++) w[i] = (uint32_t)a->fillValue;
  else if (!strcmp(a->fill, "iota_u32")) for (size_t i = 0; i < words; i++) w[i] = (uint32_t)i;
  else if (!strcmp(a->fill, "iota_f32")) for (size_t i = 0; i < words; i++) { float v = (float)i; memcpy(&w[i], &v, 4); }
  else if (!strcmp(a->fill, "random_u32")) for (size_t i = 0; i < words; i++) w[i] = xorshift(&seed);
  else if (!strcmp(a->fill, "random_f32")) for (size_t i = 0; i < words; i++) { float v = (float)(xorshift(&seed) % 2000001) / 1000000.0f - 1.0f; memcpy(&w[i], &v, 4); }
  else if (!strcmp(a->fill, "file")) {
    size_t n = 0;
    char *data = read_file(a->fillPath, &n);
    if (!data) return 0;
    memset(a->host, 0, a->bytes);
    memcpy(a->host, data, n < a->bytes ? n : a->bytes);
    free(data);
  } else return 0;
  return 1;
}

static void capture_all(void) {
  for (int i = 0; i < nargs; i++) {
    struct arg *a = &args[i];
    if (a->kind == SCALAR || !a->capture[0] || !strcmp(a->capture, "-")) continue;
    if (a->kind == BUF) p_cuMemcpyDtoH(a->host, a->dev, a->bytes);
    FILE *f = fopen(a->capture, "wb");
    if (f) { fwrite(a->host, 1, a->bytes, f); fclose(f); }
  }
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s PLAN | --probe\n", argv[0]); return 2; }
  if (!strcmp(argv[1], "--probe")) {
    /* Is there a usable driver? (asked before looking for compute-sanitizer) */
    if (!load_driver()) { finish("no-driver", 0, "libcuda.so.1 could not be loaded", 0); return 3; }
    CUresult pr = p_cuInit(0);
    if (pr) { finish("no-driver", pr, "cuInit failed", 0); return 3; }
    finish("ok", 0, "driver present", 0);
    return 0;
  }
  if (!parse_plan(argv[1])) { finish("bad-plan", 0, "the plan could not be read", 0); return 2; }
  if (!load_driver()) { finish("no-driver", 0, "libcuda.so.1 could not be loaded", 0); return 3; }
  CUresult r = p_cuInit(0);
  if (r) { finish("no-driver", r, "cuInit failed", 0); return 3; }
  CUdevice dev;
  CUcontext ctx;
  char name[256] = {0};
  int driver = 0;
  if ((r = p_cuDeviceGet(&dev, 0)) || (r = p_cuCtxCreate(&ctx, 0, dev))) { finish("no-device", r, "no usable device", 0); return 3; }
  p_cuDeviceGetName(name, sizeof name, dev);
  p_cuDriverGetVersion(&driver);
  fprintf(stderr, "device: %s, driver %d\n", name, driver);

  size_t ptxSize = 0;
  char *ptx = read_file(ptxPath, &ptxSize);
  if (!ptx) { finish("bad-plan", 0, "the PTX file could not be read", 0); return 2; }
  char log[8192] = {0};
  int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
  CUmodule mod;
  if ((r = p_cuModuleLoadDataEx(&mod, ptx, 2, opts, vals))) { finish("load-failed", r, log, 0); return 0; }
  CUfunction fn;
  if ((r = p_cuModuleGetFunction(&fn, mod, kernelName))) { finish("load-failed", r, "kernel not found in the module", 0); return 0; }
  if (sharedBytes > 48 * 1024) p_cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)sharedBytes);

  void *params[MAX_ARGS];
  for (int i = 0; i < nargs; i++) {
    struct arg *a = &args[i];
    if (a->kind == SCALAR) { params[i] = a->scalar; continue; }
    size_t bytes = a->bytes ? a->bytes : 4;
    if (a->kind == DEBUG) {
      if ((r = p_cuMemHostAlloc(&a->host, bytes, CU_MEMHOSTALLOC_DEVICEMAP)) ||
          (r = p_cuMemHostGetDevicePointer(&a->dev, a->host, 0))) { finish("alloc-failed", r, "mapped host buffer", 0); return 0; }
      memset(a->host, 0, bytes);
    } else {
      a->host = malloc(bytes);
      if (!a->host || !fill(a)) { finish("bad-plan", 0, "a buffer could not be filled", 0); return 2; }
      if ((r = p_cuMemAlloc(&a->dev, bytes)) || (r = p_cuMemcpyHtoD(a->dev, a->host, bytes))) { finish("alloc-failed", r, "device buffer", 0); return 0; }
    }
    params[i] = &a->dev;
  }

  CUevent start, stop;
  p_cuEventCreate(&start, 0);
  p_cuEventCreate(&stop, 0);
  p_cuEventRecord(start, NULL);
  r = p_cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], sharedBytes, NULL, params, NULL);
  if (r) { finish("launch-failed", r, "cuLaunchKernel", 0); capture_all(); return 0; }
  p_cuEventRecord(stop, NULL);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    r = p_cuEventQuery(stop);
    if (r != CUDA_ERROR_NOT_READY) break;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 > timeoutSeconds) {
      /* The debug buffer is host memory: it can be read while the kernel hangs. */
      for (int i = 0; i < nargs; i++) if (args[i].kind != DEBUG) args[i].capture[0] = 0;
      capture_all();
      finish("timeout", 0, "the kernel did not finish in time", 0);
      fflush(stdout);
      _exit(0);
    }
    struct timespec nap = {0, 200000};
    nanosleep(&nap, NULL);
  }
  if (r == 0) r = p_cuCtxSynchronize();
  if (r) {
    /* After a fault the context is lost: only the mapped debug buffer is readable. */
    for (int i = 0; i < nargs; i++) if (args[i].kind != DEBUG) args[i].capture[0] = 0;
    capture_all();
    finish("kernel-failed", r, "the kernel faulted", 0);
    return 0;
  }
  float ms = 0;
  p_cuEventElapsedTime(&ms, start, stop);
  capture_all();
  finish("ok", 0, name, ms);
  return 0;
}
