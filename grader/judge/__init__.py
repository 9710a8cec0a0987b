"""Trusted verdicts: grade one file, compare answers, diagnose mistakes, check the rules."""
