"""What the warm check server keeps from one check to the next: a warm worker pool per set of
preloaded libraries, and each lesson it loaded with its reference's outcomes computed. A check run
by the `grader` command itself keeps nothing (`KEPT` is None) and starts its own pool."""
from grader.classroom.gradebook import lesson_version
from grader.runner.workers import Pool

KEPT = None         # a Kept, in the warm check server only


class Kept:
    def __init__(self):
        self.pools = {}         # preload -> Pool (not sandboxed)
        self.lessons = {}       # lesson id -> (its files' version, its roadmap entry, the Lesson)

    def pool(self, preload):
        """The warm pool for jobs that preload `preload` (started on first use)."""
        if preload not in self.pools:
            self.pools[preload] = Pool(1, False, preload)
        return self.pools[preload]

    def lesson(self, lesson):
        """The Lesson kept for `lesson`'s id when its files and roadmap entry are the same as when
        it was loaded; else `lesson` (freshly loaded), kept from now on."""
        version = lesson_version(lesson)
        kept = self.lessons.get(lesson.id)
        if kept and kept[0] == version and kept[1] == lesson.entry and kept[2].folder == lesson.folder:
            return kept[2]
        self.lessons[lesson.id] = (version, lesson.entry, lesson)
        return lesson

    def close(self):
        """End every kept worker (a check interrupted halfway leaves its pool in no known state)."""
        for pool in self.pools.values():
            pool.close()
        self.pools.clear()
