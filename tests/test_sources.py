"""Lesson sources: solution regions become stubs, lesson.md parses into its parts."""
import pytest

from grader.lessons import prose, regions

REFERENCE = '''\
def f(x):
    """Doc."""
    ### BEGIN SOLUTION
    y = x + 1
    return y
    ### END SOLUTION


def g():
    ### BEGIN SOLUTION
    return 2
    ### END SOLUTION
'''


def test_stub_replaces_each_region_at_its_indent():
    stub = regions.stub(REFERENCE)
    assert stub.count('    raise NotImplementedError("not implemented yet")') == 2
    assert "x + 1" not in stub and '"""Doc."""' in stub
    namespace = {}
    exec(stub, namespace)
    with pytest.raises(NotImplementedError):
        namespace["f"](1)


@pytest.mark.parametrize("source", ["def f():\n    return 1\n",
                                    "### BEGIN SOLUTION\nx = 1\n",
                                    "### END SOLUTION\n### BEGIN SOLUTION\n"])
def test_broken_markers_are_refused(source):
    with pytest.raises(regions.RegionError):
        regions.stub(source)


LESSON = """\
## Learn it
Words.
```python
>>> x = np.array([1.0])
>>> f(x)
array([2])
```
## Your turn
Task.
## Examples
```python
>>> f(np.array([1.0, 2.0]),
...   axis=0)
array([2, 3])
```
## Hints
### Where to start
a
### The key step
b
### The outline
c
## Solution
s
## Watch out
w
## Check yourself
### Why?
Because.
"""


def test_lesson_md_parses():
    p = prose.parse(LESSON)
    assert [t for t, _ in p.hints] == ["Where to start", "The key step", "The outline"]
    assert p.questions == (("Why?", "Because."),)
    first, second = p.examples
    assert first.setup == ("x = np.array([1.0])",) and first.source == "f(x)"
    assert second.section == "Examples" and second.source == "f(np.array([1.0, 2.0]),\n  axis=0)"
    assert second.expected == "array([2, 3])"


def test_missing_parts_are_named():
    with pytest.raises(prose.ProseError, match="Watch out"):
        prose.parse(LESSON.replace("## Watch out", "## Careful"))
    with pytest.raises(prose.ProseError, match="three hint tiers"):
        prose.parse(LESSON.replace("### The outline\nc\n", ""))
