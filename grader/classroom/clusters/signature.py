"""Which cluster a current result falls in: a wrong answer that no known mistake or symptom
explains, whose code ran the cases, is in the cluster of every answer with the same outputs on every
case (a case passed counts as passed, whatever its exact numbers). The cluster's id is a short
digest of those outputs, so it stays the same from run to run, and a learner graded later whose
answer gives the same outputs falls in it too."""
import hashlib
import json

PREFIX = "cluster:"         # how mistake notes and the report name a cluster: cluster:<id>
ID_DIGITS = 8


def not_run(case):
    return case["verdict"].startswith("not run")


def code_ran(cur):
    """Whether the learner's code ran the cases (so each failure says something about it)."""
    return not (cur.error or cur.fault or cur.violations) and not all(
        c["verdict"] == "not implemented yet" or not_run(c) for c in cur.cases)


def unexplained(cur):
    """Whether a current result is a wrong answer that no diagnosis explains, from code that ran."""
    return not (cur.fault or cur.passed or cur.diagnosis) and code_ran(cur)


def cluster_id(outputs):
    """The id of the cluster of answers with these outputs: (case name, passed, output hash) in
    case order (the hash of a passed case is left out)."""
    signature = [[name, bool(passed), None if passed else output]
                 for name, passed, output in outputs]
    return hashlib.sha256(json.dumps(signature).encode()).hexdigest()[:ID_DIGITS]


def of_result(cur, outputs):
    """The cluster id of a current result (classroom.view.Current) with these case outputs, or
    None when it is not an unexplained wrong answer."""
    return cluster_id(outputs) if unexplained(cur) else None
