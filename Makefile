# SPDX-License-Identifier: Apache-2.0
# The two commands of the README. Both install what is missing, then build.
.PHONY: demo test build clean

demo:
	@scripts/install-deps.sh
	@scripts/demo.sh

test:
	@scripts/test.sh

build:
	@scripts/install-deps.sh
	cmake -S . -B build/plain >/dev/null
	cmake --build build/plain -j $$(nproc)

clean:
	rm -rf build
