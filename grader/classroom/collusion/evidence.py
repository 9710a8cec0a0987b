"""What the gradebook's current results say about shared work, lesson by lesson:

* identical files: learners who handed in byte-identical files (by SHA-256) that are neither the
  lesson's stub nor its reference;
* shared wrong outputs: learners with different files whose outputs agree on every hidden case
  they fail (the same cases failed, the same outputs on each), when few learners share them.
"""
import json
from dataclasses import dataclass
from itertools import combinations

RARE_SHARE = 0.05       # a group of wrong outputs is rare when at most this share of the lesson's
RARE_LEAST = 2          # learners (and at least this many) give it


@dataclass(frozen=True)
class SameFile:
    lesson: str
    learners: tuple         # two or more, sorted
    sha256: str
    graded: int             # learners graded on the lesson


@dataclass(frozen=True)
class SharedOutputs:
    lesson: str
    pair: tuple             # two learners, sorted
    cases: tuple            # the hidden cases both fail, by name
    shared_by: int          # learners whose outputs agree with theirs on every one of them
    rarest: int             # learners giving the rarest of those outputs, case by case
    graded: int             # learners graded on the lesson
    diagnosis: tuple        # what the grader diagnosed in both results


def rare(count, graded):
    return count <= max(RARE_LEAST, int(graded * RARE_SHARE))


def current_results(db):
    """{lesson: {learner: (sha256, diagnosis JSON, {hidden failed case: (name, output hash)})}}."""
    found = {}
    for rid, learner, lesson, sha, diagnosis in db.execute(
            "SELECT r.id, c.learner, c.lesson, s.sha256, r.diagnosis FROM current c JOIN results "
            "r ON r.id = c.result JOIN submissions s ON s.id = r.submission WHERE r.fault = 0"):
        failed = {pos: (name, out) for pos, name, out in db.execute(
            "SELECT position, name, output FROM case_results WHERE result = ? AND public = 0 AND "
            "passed = 0", (rid,))}
        found.setdefault(lesson, {})[learner] = (sha, diagnosis, failed)
    return found


def same_files(lesson, results, given):
    """SameFile groups of `lesson`; `given`: the SHA-256s of files no one wrote (stub, reference)."""
    groups = {}
    for learner, (sha, _, _) in results.items():
        if ":" not in sha and sha != "unreadable" and sha not in given:
            groups.setdefault(sha, []).append(learner)
    return [SameFile(lesson, tuple(sorted(ls)), sha, len(results))
            for sha, ls in sorted(groups.items(), key=lambda g: sorted(g[1])) if len(ls) > 1]


def shared_outputs(lesson, results):
    """SharedOutputs pairs of `lesson`, of learners whose files differ."""
    per_case = {}           # (position, output) -> how many learners gave it
    for _, _, failed in results.values():
        for pos, (_, out) in failed.items():
            per_case[pos, out] = per_case.get((pos, out), 0) + 1
    groups = {}
    for learner, (_, _, failed) in results.items():
        if failed and all(out is not None for _, out in failed.values()):
            key = frozenset((pos, out) for pos, (_, out) in failed.items())
            groups.setdefault(key, []).append(learner)
    found = []
    for key, learners in groups.items():
        if len(learners) < 2 or not rare(len(learners), len(results)):
            continue
        for a, b in combinations(sorted(learners), 2):
            (sha_a, diag_a, failed), (sha_b, diag_b, _) = results[a], results[b]
            if sha_a == sha_b:
                continue            # identical files: listed as such
            both = ({d["mistake"] for d in json.loads(diag_a)}
                    & {d["mistake"] for d in json.loads(diag_b)})
            found.append(SharedOutputs(
                lesson, (a, b), tuple(failed[pos][0] for pos in sorted(failed)), len(learners),
                min(per_case[k] for k in key), len(results), tuple(sorted(both))))
    return sorted(found, key=lambda s: s.pair)


def gather(db, given):
    """(SameFile groups, SharedOutputs pairs) of every lesson; `given(lesson id)`: the SHA-256s of
    that lesson's stub and reference."""
    files, outputs = [], []
    for lesson, results in sorted(current_results(db).items()):
        files += same_files(lesson, results, given(lesson))
        outputs += shared_outputs(lesson, results)
    return files, outputs
