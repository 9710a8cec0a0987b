# The Transformer Workbook. `make check` is the learner's main command; `make test` the project's.
PY := .venv/bin/python
GRADER := .venv/bin/grader
STAMP := .venv/.installed
L ?=
# PyTorch's own package index to install torch from, e.g. the CPU-only build:
# make setup TORCH_INDEX=https://download.pytorch.org/whl/cpu (default: the usual index).
TORCH_INDEX ?=

.PHONY: setup check hint status solution reset backups restore watch stop grade demo-notes report build verify mutate test bench help capstone lab
.DEFAULT_GOAL := check

# A virtual environment records absolute paths (its scripts' first line, the editable install of
# the grader): when the workbook has moved, set it up again where it is now.
ifneq ($(wildcard $(STAMP)),)
ifneq ($(shell head -n1 $(GRADER) 2>/dev/null | cut -c3-),$(CURDIR)/.venv/bin/python)
$(info .venv was set up for another folder (was the workbook moved or copied?); setting it up again here.)
$(shell rm -f $(STAMP))
endif
endif

##@ For learners
setup: $(STAMP)  ## set up .venv (make setup TORCH_INDEX=https://download.pytorch.org/whl/cpu for the CPU-only torch)

$(STAMP): requirements.txt pyproject.toml
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get install -y -qq bubblewrap >/dev/null; } \
		|| echo "note: bubblewrap is not installed; class grading needs it (apt-get install bubblewrap)"
	@test ! -e $(PY) || $(PY) -c '' 2>/dev/null || { echo ".venv no longer works; making it afresh."; rm -rf .venv; }
	@test -x $(PY) || python3 -m venv .venv
	$(if $(TORCH_INDEX),$(PY) -m pip install --quiet --disable-pip-version-check --index-url $(TORCH_INDEX) "$$(grep -E '^torch==' requirements.txt)")
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@# jsonschema imports this optional IRI checker when present and it compiles a grammar on every
	@# import (about 3 s of CPU in each nbformat, nbclient and nbgrader process); nothing here checks IRIs.
	$(PY) -m pip uninstall --quiet --disable-pip-version-check -y rfc3987-syntax
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

check: $(STAMP)  ## check every lesson you started (or some: make check L=01 or L=01,02)
	@$(GRADER) check -- $(L)

hint: $(STAMP)  ## reveal one more hint: make hint L=01 (SEEN=1: show again those you saw)
	@test -n "$(L)" || { echo "Name a lesson: make hint L=01"; exit 2; }
	@$(GRADER) hint $(if $(SEEN),--seen) -- $(L)

status: $(STAMP)  ## the roadmap and your progress
	@$(GRADER) status

watch: $(STAMP)  ## re-check a lesson each time you save it: make watch L=01
	@$(GRADER) watch -- $(L)

stop:  ## end the warm check server that makes `make check` fast (it ends itself after 15 idle minutes)
	@if [ -x $(GRADER) ]; then $(GRADER) stop; else echo "No warm check server is running for this workbook."; fi

solution: $(STAMP)  ## a passed lesson's solution walkthrough and Watch out: make solution L=01
	@test -n "$(L)" || { echo "Name a lesson: make solution L=01"; exit 2; }
	@$(GRADER) solution -- $(L)

reset: $(STAMP)  ## restore a lesson's stub, keeping your version: make reset L=01
	@test -n "$(L)" || { echo "Name a lesson: make reset L=01"; exit 2; }
	@$(GRADER) reset -- $(L)

backups: $(STAMP)  ## list the saved versions of a lesson (reset, restore and the notebook keep them): make backups L=01
	@test -n "$(L)" || { echo "Name a lesson: make backups L=01"; exit 2; }
	@$(GRADER) backups -- $(L)

restore: $(STAMP)  ## bring back a kept version: make restore L=01 (the latest) or V=2
	@test -n "$(L)" || { echo "Name a lesson: make restore L=01 V=2"; exit 2; }
	@$(GRADER) restore -- $(L) $(if $(V),"$(V)")

lab: $(STAMP)  ## JupyterLab on notebooks/, with this project's Python as the kernel (INSTRUCTOR=1: with nbgrader's menus)
	@PATH="$(CURDIR)/.venv/bin:$$PATH" JUPYTER_PATH="$(CURDIR)/.venv/share/jupyter" \
		$(PY) -m grader.notebooks.lab $(if $(INSTRUCTOR),--instructor) -- --notebook-dir=notebooks $(LAB_ARGS)

capstone: $(STAMP)  ## train a small GPT with your own functions and let it write (a minute or two)
	$(PY) -u solutions/capstone/capstone.py

help:  ## list these targets
	@awk -F':.*## ' '/^##@ /{printf "\n%s:\n", substr($$0, 5)} \
		/^[a-z]+:.*## /{printf "  make %-9s %s\n", $$1, $$2}' $(firstword $(MAKEFILE_LIST))

##@ For instructors
# With no SUBMISSIONS, `make grade` grades the demo class shipped in the grader, into grading/demo/
# (with COURSE=grader/classroom/demo_course, as the demo course, into grading/demo-course/).
# COURSE names a folder holding any of course.toml, roster.csv and extensions.csv.
DEMO_CLASS := grader/classroom/demo_class
DEMO_COURSE := grader/classroom/demo_course
DEMO_LESSONS := 01,02,03,05,09,10
CLASS_OUT = $(or $(OUT),$(if $(SUBMISSIONS),grading,$(if $(COURSE),grading/demo-course,grading/demo)))
CLASS_LESSONS = $(or $(LESSONS),$(if $(SUBMISSIONS),,$(DEMO_LESSONS)))
COURSE_ARGS = $(if $(COURSE),$(foreach f,course:course.toml roster:roster.csv extensions:extensions.csv,\
	$(if $(wildcard $(COURSE)/$(word 2,$(subst :, ,$(f)))),--$(word 1,$(subst :, ,$(f))) $(COURSE)/$(word 2,$(subst :, ,$(f))))))
GRADE_CLASS = $(GRADER) grade $(if $(CLASS_LESSONS),--lessons $(CLASS_LESSONS)) --out $(CLASS_OUT) \
	$(if $(JOBS),--jobs $(JOBS)) $(COURSE_ARGS) -- $(or $(SUBMISSIONS),$(DEMO_CLASS))

grade: $(STAMP)  ## grade a class (the demo class by default): make grade SUBMISSIONS=folder [COURSE=folder] [LESSONS=01,02] [OUT=grading] [JOBS=4]
	@$(GRADE_CLASS)
	@$(if $(and $(filter $(DEMO_COURSE),$(COURSE)),$(if $(SUBMISSIONS),,1)),$(MAKE) --no-print-directory demo-notes)

# The demo course's instructor: one override and one comment (each recorded once), then the
# exports written again with them (nothing is graded again).
demo-notes:
	@$(GRADER) override hugo 01 --score 1 --out $(CLASS_OUT) --comment "Looked at by hand: the softmax is right; running text as code is still not allowed, so half the points."
	@$(GRADER) comment chloe 01 --out $(CLASS_OUT) "Subtract each row's maximum before exp: hint 1 shows why."
	@$(GRADE_CLASS) > /dev/null

report: $(STAMP)  ## what a graded class got wrong, as HTML: make report (the demo's) or OUT=grading
	@$(GRADER) report --gradebook $(CLASS_OUT)

bench: $(STAMP)  ## will grading hold for a big class: make bench [SIZES=50,200,800] [LESSONS=01,10] [NB=20] [PHASES=1] [WAYS=1] [MERGES=1000]
	@$(PY) -m grader.bench $(if $(SIZES),--sizes $(SIZES)) $(if $(LESSONS),--lessons $(LESSONS)) \
		$(if $(NB),--nbgrader $(NB)) $(if $(JOBS),--jobs $(JOBS)) $(if $(PHASES),--phases)
	@$(PY) -m grader.bench.tokenizer $(if $(MERGES),--merges $(MERGES))
	@$(if $(WAYS),$(PY) -m grader.bench.ways)
	@$(PY) -m grader.bench.checks

##@ For lesson authors

build: $(STAMP)  ## regenerate exercises/ and notebooks/ from solutions/
	@$(GRADER) build

verify: $(STAMP)  ## prove every lesson sound (its mutation gate included)
	@$(GRADER) verify $(L)

mutate: $(STAMP)  ## the mutation gate alone: make mutate [L=20] [SHOW=1] lists survivors, bare and equivalent mutants
	@$(GRADER) mutate $(if $(SHOW),--show) $(L)

test: $(STAMP)  ## the project's own tests
	$(PY) -m pytest -n 2 --dist loadgroup -q --durations=25
