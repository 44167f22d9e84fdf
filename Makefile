# megartp build. C11 host code everywhere; CUDA parts only where nvcc is found.
#   make          library, CLI, tests
#   make test     every CPU test; GPU tests when a GPU is present (skipped with a message otherwise)
#   make run      the main job: on a GPU the benchmark of all executors, else the CPU executor
CC      ?= cc
NVCC    ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
BUILD   := build
CFLAGS  := -std=c11 -O2 -g -Wall -Wextra -Werror -Iinclude -Isrc -Isrc/core -Isrc/cpu -Isrc/ops -Isrc/cuda -Imodels $(EXTRA_CFLAGS)
LDLIBS  := -lm -lpthread
comma   := ,

LIB_SRC := $(wildcard src/core/*.c src/ops/*.c src/cpu/*.c models/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

ifneq ($(NVCC),)
# Library directories as nvcc itself reports them: nvcc may be a wrapper script outside the
# toolkit (CI has /usr/local/bin/nvcc), so its own path says nothing about where libcudart is.
# The driver stubs are left out: megartp reaches the driver through the runtime's entry points.
CUDA_LIBDIRS := $(filter-out %/stubs,$(shell $(NVCC) --dryrun -o /dev/null none.o 2>&1 | sed -n 's/^\#\$$ LIBRARIES=//p' | tr -d '"'))
NVCCFLAGS   := -std=c++17 -O3 -g -lineinfo -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc -Isrc/core -Isrc/cpu -Isrc/ops -Isrc/cuda -Imodels \
               -Xcompiler -Wall,-Wextra,-Werror --expt-relaxed-constexpr $(EXTRA_NVCCFLAGS)
CUDA_SRC    := $(wildcard src/cuda/*.cu)
CUDA_OBJ    := $(if $(CUDA_SRC),$(CUDA_SRC:%.cu=$(BUILD)/%.o),$(BUILD)/src/cuda/no_cuda.o)
CUDA_LDLIBS := $(CUDA_LIBDIRS) $(patsubst -L%,-Wl$(comma)-rpath$(comma)%,$(CUDA_LIBDIRS)) -lcudart -lcublasLt -lstdc++
NVCC_LDLIBS := $(CUDA_LIBDIRS) -lcublasLt
GPU_TEST_SRC := $(wildcard tests/gpu/test_*.cu)
GPU_TEST_BIN := $(GPU_TEST_SRC:tests/gpu/%.cu=$(BUILD)/tests/gpu/%)
MICRO_BIN   := $(patsubst bench/micro/%.cu,$(BUILD)/bench/%,$(wildcard bench/micro/*.cu))
else
CUDA_OBJ    := $(BUILD)/src/cuda/no_cuda.o
CUDA_LDLIBS :=
GPU_TEST_BIN :=
MICRO_BIN   :=
endif

all: $(BUILD)/megartp $(TEST_BIN) $(GPU_TEST_BIN) $(MICRO_BIN)

$(BUILD)/%.o: %.c $(wildcard include/*.h src/*/*.h models/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/src/cuda/no_cuda.o: src/cuda/no_cuda.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cu $(wildcard include/*.h src/*/*.h src/*/*.cuh models/*.h)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(NVCC_FILE_FLAGS) -c $< -o $@

# Code that computes what e4m3 codes are rounded from takes the CPU reference's exact
# steps: no fused multiply-add contraction there.
$(BUILD)/src/cuda/prefix_ops.o: NVCC_FILE_FLAGS := -fmad=false

$(BUILD)/libmegartp.a: $(LIB_OBJ) $(CUDA_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/megartp: tools/megartp.c $(BUILD)/libmegartp.a
	$(CC) $(CFLAGS) $< $(BUILD)/libmegartp.a $(CUDA_LDLIBS) $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c tests/testing.h $(BUILD)/libmegartp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests $< $(BUILD)/libmegartp.a $(CUDA_LDLIBS) $(LDLIBS) -o $@

$(BUILD)/tests/gpu/%: tests/gpu/%.cu $(BUILD)/libmegartp.a
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Itests $< $(BUILD)/libmegartp.a $(NVCC_LDLIBS) -o $@

# Microbenchmarks (bench/micro): one GPU question each, run by hand or by a device script
$(BUILD)/bench/%: bench/micro/%.cu $(BUILD)/libmegartp.a $(wildcard src/ops/*.cuh src/cuda/*.h)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $< $(BUILD)/libmegartp.a $(NVCC_LDLIBS) -o $@

test: all
	@sh scripts/test-deps.sh
	@sh tests/run_all.sh $(BUILD) "$(TEST_BIN)" "$(GPU_TEST_BIN)"

run: $(BUILD)/megartp
	@sh scripts/main_job.sh $(BUILD)/megartp

clean:
	rm -rf $(BUILD)

.PHONY: all test run clean
.SECONDARY:
