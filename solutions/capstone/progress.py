"""A progress bar for training: the step, the latest loss and an estimate of the time left.

On a terminal it redraws one line; elsewhere (a log, a notebook's captured output, a test) it
prints a new line every tenth of the way, so the output stays short.
"""
import sys
import time


def clock(seconds):
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    def __init__(self, total, width=30, out=None):
        self.total, self.width, self.out = total, width, out or sys.stdout
        self.start = time.monotonic()
        self.redraw = self.out.isatty()
        self.shown = -1

    def line(self, step, loss):
        done = step / self.total
        elapsed = time.monotonic() - self.start
        left = elapsed / done * (1 - done) if done else 0.0
        bar = "#" * round(done * self.width)
        return (f"[{bar:<{self.width}}] {step:>{len(str(self.total))}}/{self.total} steps  "
                f"loss {loss:.3f}  {clock(elapsed)} so far, about {clock(left)} left")

    def update(self, step, loss):
        """Show the bar at `step` (steps done) with the latest loss."""
        tenth = step * 10 // self.total
        if self.redraw:
            self.out.write("\r" + self.line(step, loss))
        elif tenth > self.shown or step == self.total:
            self.out.write(self.line(step, loss) + "\n")
        self.shown = tenth
        self.out.flush()

    def close(self):
        if self.redraw:
            self.out.write("\n")
            self.out.flush()
