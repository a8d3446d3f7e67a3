"""The rows every `<format>.oracle.py` beside this file writes: each value at its path, as the text
of dissect's JSON value, in `<format>.oracle.tsv` after its three header lines.

The text: integers in decimal, booleans true/false, bytes in lowercase hex, floats as Python's
str(), strings with backslash, tab, newline and carriage return escaped (\\\\, \\t, \\n, \\r).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def render(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, bytes):
        return value.hex()
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class Rows:
    """An oracle's rows, in order: `add(path, value)` each (or `extend` with pairs), then `write`."""

    def __init__(self):
        self.rows = []

    def add(self, path, value):
        self.rows.append((path, render(value)))

    def extend(self, pairs):
        for path, value in pairs:
            self.add(path, value)

    def __len__(self):
        return len(self.rows)

    def write(self, name, root, sample):
        """Writes `<name>.oracle.tsv` beside this file: the values of Schemas/examples/<name>.schema
        read from `root` on `sample` (a file of this folder). Returns the file's path."""
        out = os.path.join(HERE, f"{name}.oracle.tsv")
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(f"# schema: Schemas/examples/{name}.schema\n# root: {root}\n"
                         f"# sample: Corpus/examples/formats/{sample}\n")
            for path, text in self.rows:
                handle.write(f"{path}\t{text}\n")
        return out
