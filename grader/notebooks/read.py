"""Where a learner's notebooks lie: a lesson's notebook in a learner's folder, and the folder of
learners in an nbgrader course."""


def notebook_file(folder, lesson):
    """The learner's notebook for `lesson` in `folder`: `NN-slug.ipynb`, or, for a learner's folder
    in nbgrader's `submitted/`, inside one of its assignment folders
    (`submitted/<learner>/<assignment>/NN-slug.ipynb`); None if there is none."""
    name = f"{lesson.id}.ipynb"
    if (folder / name).is_file():
        return folder / name
    if folder.resolve().parent.name != "submitted":
        return None
    return next((p for p in sorted(folder.glob(f"*/{name}")) if p.is_file()), None)


def learners_folder(root):
    """The folder that holds one folder per learner: an nbgrader course's `submitted/`, or `root`."""
    submitted = root / "submitted"
    return submitted if submitted.is_dir() and (root / "nbgrader_config.py").is_file() else root
