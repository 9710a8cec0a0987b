"""Clusters of unexplained wrong answers: the answers no known mistake or symptom explains, grouped
by what they output on every case (signature: which cluster a result is in, and its id), listed
from the gradebook (groups, listing), and turned into a new entry of the lesson's mistakes.py for
its author to review (entry, promote)."""
