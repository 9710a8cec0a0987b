# The Transformer Workbook. `make check` is the learner's main command; `make test` the project's.
PY := .venv/bin/python
GRADER := .venv/bin/grader
STAMP := .venv/.installed
L ?=

.PHONY: setup check hint status reset watch grade build verify test bench lab
.DEFAULT_GOAL := check

setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get install -y -qq bubblewrap >/dev/null; } \
		|| echo "note: bubblewrap is not installed; class grading needs it (apt-get install bubblewrap)"
	@test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

check: $(STAMP)  ## check every lesson you started (or one: make check L=01)
	@$(GRADER) check $(L)

hint: $(STAMP)  ## reveal one more hint: make hint L=01
	@test -n "$(L)" || { echo "Name a lesson: make hint L=01"; exit 2; }
	@$(GRADER) hint $(L)

status: $(STAMP)  ## the roadmap and your progress
	@$(GRADER) status

reset: $(STAMP)  ## restore a lesson's stub: make reset L=01
	@test -n "$(L)" || { echo "Name a lesson: make reset L=01"; exit 2; }
	@$(GRADER) reset $(L)

build: $(STAMP)  ## regenerate exercises/ and notebooks/ from solutions/
	@$(GRADER) build

verify: $(STAMP)  ## prove every lesson sound
	@$(GRADER) verify $(L)

test: $(STAMP)  ## the project's own tests
	$(PY) -m pytest -n 2 --dist loadgroup -q

watch: $(STAMP)  ## re-check a lesson each time you save it: make watch L=01
	@$(GRADER) watch $(L)

grade: $(STAMP)  ## grade a class: make grade SUBMISSIONS=folder
	@test -n "$(SUBMISSIONS)" || { echo "Name the class folder: make grade SUBMISSIONS=path"; exit 2; }
	@$(GRADER) grade $(SUBMISSIONS)

bench: $(STAMP)  ## grading throughput: warm workers vs a process per job vs pytest
	@$(PY) -m grader.bench

lab: $(STAMP)  ## JupyterLab on notebooks/, with this project's Python as the kernel
	@PATH="$(CURDIR)/.venv/bin:$$PATH" JUPYTER_PATH="$(CURDIR)/.venv/share/jupyter" \
		$(PY) -m jupyter lab --notebook-dir=notebooks $(LAB_ARGS)
