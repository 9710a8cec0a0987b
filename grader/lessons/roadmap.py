"""The roadmap manifest: chapters and lessons in order, and finding a lesson by number or slug."""
import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path


FRAMEWORKS = ("numpy", "torch")    # what a lesson is written in; a numpy lesson allows numpy alone


class UnknownLesson(LookupError):
    """A lesson name that matches no lesson; its message lists what would."""


class RoadmapError(ValueError):
    """solutions/roadmap.toml says something the grader cannot act on (an author's error)."""


@dataclass(frozen=True)
class Entry:
    id: str          # the folder name, "01-softmax"
    title: str
    chapter: str
    framework: str

    @property
    def number(self):
        return int(self.id.split("-", 1)[0])

    @property
    def slug(self):
        return self.id.split("-", 1)[1]


@dataclass(frozen=True)
class Roadmap:
    title: str
    chapters: tuple   # (title, (Entry, ...)) pairs
    root: Path

    @property
    def entries(self):
        return [e for _, lessons in self.chapters for e in lessons]

    def available(self, entry):
        """Whether the lesson's source exists (otherwise it is coming soon)."""
        return (self.root / "solutions" / entry.id / "solution.py").is_file()

    def find(self, name):
        """The entry named by number ("10", "1") or slug ("residual-block") or id."""
        name = str(name).strip().rstrip("/").split("/")[-1]
        for e in self.entries:
            if name in (e.id, e.slug) or (name.isdigit() and len(name) <= 2 and int(name) == e.number):
                return e
        numbers = [e.number for e in self.entries]
        if name.lstrip("-").isdigit():
            raise UnknownLesson(f"There is no lesson {name}: lessons are numbered "
                                f"{min(numbers):02d} to {max(numbers):02d}; `make status` lists them.")
        close = difflib.get_close_matches(name, [e.slug for e in self.entries], n=3)
        tip = f" Did you mean {', '.join(close)}?" if close else ""
        raise UnknownLesson(f"There is no lesson named '{name}'.{tip} "
                            "Name a lesson by number (10) or slug (residual-block); "
                            "`make status` lists them all.")


def framework(lesson, chapter):
    """A lesson's framework: its own, else its chapter's; one of FRAMEWORKS, since its rules
    follow from it."""
    value = lesson.get("framework", chapter.get("framework"))
    if value not in FRAMEWORKS:
        raise RoadmapError(f"solutions/roadmap.toml: lesson {lesson['id']} has framework "
                           f"{value!r}; each lesson (or its chapter) names one of "
                           f"{', '.join(map(repr, FRAMEWORKS))}")
    return value


def load(root):
    """Read solutions/roadmap.toml below `root`."""
    data = tomllib.loads((Path(root) / "solutions" / "roadmap.toml").read_text())
    chapters = tuple(
        (ch["title"], tuple(Entry(l["id"], l["title"], ch["title"], framework(l, ch))
                            for l in ch["lessons"]))
        for ch in data["chapter"])
    return Roadmap(data["title"], chapters, Path(root))
