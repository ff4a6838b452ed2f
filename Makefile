# kubesim: `make run` runs the main job, `make test` the whole test suite. Both install what is
# missing (scripts/setup.sh), configure and build first.
.PHONY: run test bench release setup clean

BUILD_TEST  := build/test
BUILD_REL   := build/release
JOBS        ?= 2

setup:
	bash scripts/setup.sh

test: setup
	cmake -S . -B $(BUILD_TEST) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKUBESIM_SANITIZE=address,undefined \
	  -DKUBESIM_UNITY_LIBS=ON
	cmake --build $(BUILD_TEST) -j$(JOBS)
	ctest --test-dir $(BUILD_TEST) --output-on-failure -j$(JOBS)

release: setup
	cmake -S . -B $(BUILD_REL) -G Ninja -DCMAKE_BUILD_TYPE=Release -DKUBESIM_BUILD_TESTS=OFF -DKUBESIM_BUILD_BENCH=ON
	cmake --build $(BUILD_REL) -j$(JOBS)

# The main job: every scenario of the library over its seeds, with a report under build/.
run: release
	@$(BUILD_REL)/tools/kubesim run scenarios/library --jobs $(JOBS) \
	  --report build/report.html --junit build/junit.xml --results build/results.json; \
	rc=$$?; echo "report: $(CURDIR)/build/report.html (JUnit: build/junit.xml, results: build/results.json)"; \
	exit $$rc

bench: release
	for b in $(BUILD_REL)/bench/*_bench; do $$b; done

clean:
	rm -rf build
