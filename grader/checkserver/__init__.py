"""The warm check server: `grader check` answers as fast as `grader watch` does.

The first check of a workbook starts a server of the learner's own (server.py) that keeps numpy,
torch, the loaded lessons and warm workers (grader.runner.workers) between checks; every check
after it hands its job to the server through a Unix socket in `.workbook/checker/` (mode 0700, the
socket 0600; both ends check that the other is the same user), and the server runs exactly the
check the command would have run, printing to the command's own terminal. The client (client.py)
imports neither numpy nor torch. Whenever the server cannot be used (a stale socket, a dead or
busy server, another grader's code, any error) the check runs in the command's own process, as
it always did. The server ends itself after an idle stretch (WORKBOOK_CHECK_IDLE seconds, 900 by
default; 0 turns it off), on `grader stop`, and when its code is no longer the grader's.
"""
