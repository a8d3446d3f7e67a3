#!/usr/bin/env python3
"""Write mo.oracle.tsv: the catalog in sample.mo as gettext's own readers see it.

The strings come from Python's gettext.GNUTranslations (its catalog: each msgid, with a
context as "msgctxt\\x04msgid", and each msgstr or plural form), the plural originals' second
string from GNU gettext's `msgunfmt` (its PO output, parsed with polib), and the magic number
and revision from polib's MO reader (pip install polib). The string tables are in the order
the manual prescribes, sorted by original string; each length is the string's UTF-8 size
without its terminating NUL (a plural's strings joined by NULs). No value is taken from dissect.
"""
import gettext
import os
import subprocess
import sys

import polib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_rows import Rows  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "sample.mo")

with open(SAMPLE, "rb") as handle:
    catalog = gettext.GNUTranslations(handle)._catalog

# msgid -> its translation forms, in order
forms = {}
for key, text in catalog.items():
    msgid, number = key if isinstance(key, tuple) else (key, 0)
    forms.setdefault(msgid, {})[number] = text

# msgunfmt writes the catalog back as PO: the plural entries' msgid_plural
po = polib.pofile(subprocess.run(["msgunfmt", SAMPLE], capture_output=True, text=True, check=True).stdout)
plurals = {(f"{e.msgctxt}\x04" if e.msgctxt else "") + e.msgid: e.msgid_plural for e in po if e.msgid_plural}

mo = polib.mofile(SAMPLE)
rows = Rows()
rows.add("mo.magic", mo.magic_number)
rows.add("mo.revision", mo.version)
rows.add("mo.number_of_strings", len(forms))

for index, msgid in enumerate(sorted(forms, key=lambda s: s.encode("utf-8"))):
    original = f"mo.original_strings[{index}]"
    strings = [msgid] + ([plurals[msgid]] if msgid in plurals else [])
    rows.add(original + ".length", len("\0".join(strings).encode("utf-8")))
    rows.add(original + ".string.msgid", msgid)
    if msgid in plurals:
        rows.add(original + ".string.msgid_plural", plurals[msgid])
    translation = f"mo.translation_strings[{index}]"
    texts = [forms[msgid][n] for n in sorted(forms[msgid])]
    rows.add(translation + ".length", len("\0".join(texts).encode("utf-8")))
    for number, text in enumerate(texts):
        rows.add(f"{translation}.string.msgstr[{number}]", text)

out = rows.write("mo", "MO", "sample.mo")
print(f"{out}: {len(rows)} values")
