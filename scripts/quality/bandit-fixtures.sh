#!/usr/bin/env bash
# Rebuilds test/fixtures/quality/bandit/ from a git directory of PyCQA/bandit (the fetch tool's bare clone, or
# any clone): its examples/ and LICENSE as they are at HEAD, SOURCE (repository, commit), and labels.json, the
# per-line labels bandit's own functional tests give (scripts/quality/bandit-labels.py: each test run with its
# own settings, the issues of every check it makes recorded with their lines; the counts still checked).
# Needs python3 with PyYAML, stevedore and rich (Debian: apt-get install python3-yaml python3-stevedore python3-rich).
# Usage: scripts/quality/bandit-fixtures.sh /path/to/bandit.git
set -euo pipefail
GIT_DIR_IN="${1:?usage: bandit-fixtures.sh <bandit git dir>}"
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/../../test/fixtures/quality/bandit"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
COMMIT="$(git --git-dir="$GIT_DIR_IN" rev-parse HEAD)"
git --git-dir="$GIT_DIR_IN" archive HEAD bandit examples tests setup.cfg LICENSE | tar x -C "$WORK"
# bandit finds its plugins through entry points: give the unpacked source a dist-info naming them (from setup.cfg).
mkdir -p "$WORK/bandit-0.dev0.dist-info"
printf 'Metadata-Version: 2.1\nName: bandit\nVersion: 0.dev0\n' > "$WORK/bandit-0.dev0.dist-info/METADATA"
python3 - "$WORK" <<'PY'
import configparser, sys
work = sys.argv[1]
c = configparser.ConfigParser()
c.read(f"{work}/setup.cfg")
with open(f"{work}/bandit-0.dev0.dist-info/entry_points.txt", "w") as f:
    for group, body in c["entry_points"].items():
        if group in c.defaults():
            continue
        f.write(f"[{group}]\n")
        for line in body.strip().splitlines():
            if line.strip() and not line.strip().startswith("#"):
                f.write(line.strip() + "\n")
PY
(cd "$WORK" && PYTHONPATH="$WORK" python3 "$HERE/bandit-labels.py" > "$WORK/labels.json" 2>"$WORK/labels.log") || { tail -20 "$WORK/labels.log"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
cp -r "$WORK/examples" "$OUT/examples"
cp "$WORK/LICENSE" "$OUT/LICENSE"
cp "$WORK/labels.json" "$OUT/labels.json"
printf 'repository: https://github.com/PyCQA/bandit\ncommit: %s\nfiles: examples/ (as at that commit), LICENSE\nlabels.json: scripts/quality/bandit-labels.py run on tests/functional/test_functional.py at that commit\n' "$COMMIT" > "$OUT/SOURCE"
echo "bandit fixtures at $COMMIT: $(ls "$OUT/examples" | wc -l) entries"
