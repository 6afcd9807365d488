"""Checks that docs/COOKBOOK.md shows the guards that the tests run.

Each code block of the page that follows a line
    <!-- file: clients/python/examples/guard.py -->
must be that file, byte for byte (the tests run the files: scripts/clients.sh).
Exit status 1 and a diff when one differs, or when a named file is missing.
"""
import difflib
import os
import re
import sys

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
page = os.path.join(here, "docs", "COOKBOOK.md")
text = open(page, encoding="utf-8").read()
blocks = re.findall(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```\n", text, re.S)
if not blocks:
    sys.exit("docs/COOKBOOK.md: no <!-- file: ... --> blocks")
bad = 0
for path, shown in blocks:
    full = os.path.join(here, path)
    if not os.path.exists(full):
        print("%s: missing (named in docs/COOKBOOK.md)" % path)
        bad += 1
        continue
    real = open(full, encoding="utf-8").read()
    if real != shown:
        bad += 1
        sys.stdout.writelines(difflib.unified_diff(
            shown.splitlines(True), real.splitlines(True),
            "docs/COOKBOOK.md (%s)" % path, path))
print("docs/COOKBOOK.md: %d blocks, %d differ from their files" % (len(blocks), bad))
sys.exit(1 if bad else 0)
