"""The roadmap manifest: chapters and lessons in order, and finding a lesson by number or slug."""
import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path


class UnknownLesson(LookupError):
    """A lesson name that matches no lesson; its message lists what would."""


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


def load(root):
    """Read solutions/roadmap.toml below `root`."""
    data = tomllib.loads((Path(root) / "solutions" / "roadmap.toml").read_text())
    chapters = tuple(
        (ch["title"], tuple(Entry(l["id"], l["title"], ch["title"], l.get("framework", ch["framework"]))
                            for l in ch["lessons"]))
        for ch in data["chapter"])
    return Roadmap(data["title"], chapters, Path(root))
