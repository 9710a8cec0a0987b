"""The Transformer Workbook's grader."""
__version__ = "0.1.0"
