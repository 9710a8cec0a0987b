"""`grader watch`: re-check a lesson every time its file is saved, on one warm worker."""
import contextlib
import time

from grader.runner.workers import Pool, preload_for

from .check import check_one


def watch(console, wb, lesson, interval):
    """Check `lesson`'s exercise now and after every change, until Ctrl-C."""
    path = wb.exercise(lesson.entry)
    seen = None
    with Pool(preload=preload_for([lesson])) as pool, contextlib.suppress(KeyboardInterrupt):
        while True:
            content = path.read_bytes() if path.is_file() else None
            if content != seen:
                seen = content
                console.clear()
                started = time.monotonic()
                check_one(console, wb, lesson, path, False, pool)
                console.print(f"\n[dim]Checked at {time.strftime('%H:%M:%S')} in "
                              f"{time.monotonic() - started:.2f} s; watching exercises/{lesson.id}/"
                              "solution.py for changes (Ctrl-C stops).[/dim]")
            time.sleep(interval)
