"""Every written lesson is sound (`grader verify`), and the generated files match their sources."""
from pathlib import Path

import pytest

from grader.lessons import build, roadmap
from grader.lessons.verify import verify_lesson

ROOT = Path(__file__).resolve().parent.parent
ROADMAP = roadmap.load(ROOT)
LESSONS = build.lessons(ROADMAP)


def test_the_roadmap_lists_every_written_lesson():
    listed = {e.id for e in ROADMAP.entries}
    written = {p.parent.name for p in (ROOT / "solutions").glob("*/solution.py")}
    assert written <= listed and len(ROADMAP.entries) == 30


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=[l.id for l in LESSONS])
def test_lesson_verifies(lesson, tmp_path, pool):
    assert verify_lesson(lesson, tmp_path, pool) == []


def test_generated_files_match_their_sources():
    assert build.drift(ROADMAP) == []



@pytest.mark.parametrize("collecting", [True, False])
def test_preparing_a_lesson_leaves_the_cyclic_collector_as_it_found_it(collecting):
    """Its answers are computed with the collector paused, and a lesson whose answers cannot be
    computed leaves it as it was too."""
    import gc
    from grader.lessons import lesson as lessons
    road = roadmap.load(Path(__file__).parents[1])
    fresh = lessons.load(road, "01-softmax")
    broken = lessons.load(road, "02-attention")
    broken.__class__ = type("Broken", (type(broken),), {"mistake_table": property(lambda _: 1 / 0)})
    (gc.enable if collecting else gc.disable)()
    try:
        fresh.prepare()
        assert gc.isenabled() == collecting
        with pytest.raises(ZeroDivisionError):
            broken.prepare()
        assert gc.isenabled() == collecting
    finally:
        gc.enable()
