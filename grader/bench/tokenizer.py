"""`make bench`'s tokenizer part: how fast lesson 29's reference trains byte-level BPE, against
Hugging Face `tokenizers` (its byte-level BPE trainer, in Rust) on the same text.

The text is the workbook's own prose (every lesson.md, a few hundred KB). Each trainer learns the
same number of merges from it; the best of a few runs is taken for each. Printed: bytes of text per
second for both and their ratio. Nothing is asserted: the exit status is 0 unless a trainer fails.
"""
import argparse
import sys
import time
from pathlib import Path

from grader.lessons import lesson as lessons
from grader.lessons import roadmap
from grader.runner.workers import GRADER_HOME

LESSON = "29"


def workbook_text(root):
    """Every lesson's prose, in roadmap order, as one text."""
    return "\n".join(p.read_text() for p in sorted((Path(root) / "solutions").glob("*/lesson.md")))


def best_of(runs, train):
    """The shortest wall time of `runs` calls of `train()`, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        train()
        times.append(time.perf_counter() - start)
    return min(times)


def hugging_face_trainer(text, n_merges):
    """A function that trains Hugging Face's byte-level BPE on `text`: the ByteLevel pre-tokenizer
    (GPT-2's pattern, no prefix space) and all 256 bytes as the alphabet."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    def train():
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        tok.train_from_iterator([text], trainers.BpeTrainer(
            vocab_size=256 + n_merges, min_frequency=0, show_progress=False,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return train


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m grader.bench.tokenizer",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, default=1000, help="merges each trainer learns")
    parser.add_argument("--runs", type=int, default=3, help="runs of each trainer (the best counts)")
    args = parser.parse_args(argv)
    if args.merges < 1 or args.runs < 1:
        parser.error("--merges and --runs must be 1 or more")
    return args


def main(argv=None):
    args = parse_args(argv)
    reference = lessons.load(roadmap.load(GRADER_HOME), LESSON).namespace()["train_bpe"]
    text = workbook_text(GRADER_HOME)
    size = len(text.encode("utf-8"))
    try:
        hf = hugging_face_trainer(text, args.merges)
    except ImportError:
        sys.exit("bench: Hugging Face `tokenizers` is not installed (make setup installs it)")
    ours = best_of(args.runs, lambda: reference(text, 257 + args.merges))
    theirs = best_of(args.runs, hf)
    print(f"\nbyte-level BPE training, {args.merges} merges on {size / 1000:.0f} KB of the "
          f"workbook's prose (best of {args.runs}):")
    print(f"  lesson {LESSON}'s reference (Python): {ours:.2f} s, {size / ours / 1e6:.2f} MB/s")
    print(f"  Hugging Face tokenizers (Rust):    {theirs:.2f} s, {size / theirs / 1e6:.2f} MB/s")
    print(f"  Hugging Face is {ours / theirs:.1f}x as fast as the reference")


if __name__ == "__main__":
    main()
