# smapos - one entry point: make, make run, make test, make bench, make image.
#
# Non-recursive: each directory contributes a build.mk fragment that adds
# its outputs to the lists below.  Everything is built under $(B)/.

B := build
CC := gcc
NASM := nasm
PYTHON := python3
MUSLCC := musl-gcc

# `make V=1` shows the commands.
Q := $(if $(V),,@)

WARN := -Wall -Wextra -Werror
HOST_CFLAGS := -std=gnu11 -O2 -g $(WARN)

# Filled in by the fragments.
ALL :=		# what plain `make` builds
TEST_DEPS :=	# what `make test` needs built
BENCH_DEPS :=	# what `make bench` needs built
CLEAN :=	# extra things `make clean` removes

.DEFAULT_GOAL := all
.PHONY: all run test bench image clean deps-build deps-image deps-qemu deps-hub deps-bench
.DELETE_ON_ERROR:

# Debian packages install themselves (tools/deps); the stamps make the
# check cost nothing on later runs.
$(B)/.deps-%:
	@mkdir -p $(B)
	@sh tools/deps $*
	@touch $@
deps-build: $(B)/.deps-build
deps-image: $(B)/.deps-image
deps-qemu: $(B)/.deps-qemu
deps-hub: $(B)/.deps-hub
deps-bench: $(B)/.deps-bench

include $(sort $(wildcard */build.mk */*/build.mk))

all: $(ALL)

# Boot the ISO with 4 CPUs and the demo job.
run: $(B)/smapos.iso | $(B)/.deps-qemu
	$(PYTHON) tools/lwkrun --iso $(B)/smapos.iso -c 4 --timeout 120

test: $(TEST_DEPS) | $(B)/.deps-qemu
	$(PYTHON) tests/run

bench: $(BENCH_DEPS) | $(B)/.deps-bench $(B)/.deps-qemu
	$(PYTHON) user/bench/run

clean:
	rm -rf $(B) $(CLEAN)
