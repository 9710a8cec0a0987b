"""The class report: what a class got wrong, read from its gradebook (data), drawn (plots), written
as one HTML page (page) and summed up in the terminal (text)."""
