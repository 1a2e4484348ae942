#!/usr/bin/env bash
# Rebuilds test/fixtures/quality/gosec/ from a git directory of securego/gosec (the fetch tool's bare clone, or
# any clone): testutils/g*_samples.go (each sample: Go code and the issue count gosec's rule test expects) and
# LICENSE.txt as they are at HEAD, and SOURCE (repository, commit). scripts/quality/gosec-samples.ts reads them.
# Usage: scripts/quality/gosec-fixtures.sh /path/to/gosec.git
set -euo pipefail
GIT_DIR_IN="${1:?usage: gosec-fixtures.sh <gosec git dir>}"
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/../../test/fixtures/quality/gosec"
COMMIT="$(git --git-dir="$GIT_DIR_IN" rev-parse HEAD)"
rm -rf "$OUT" && mkdir -p "$OUT/testutils"
for f in $(git --git-dir="$GIT_DIR_IN" ls-tree --name-only HEAD testutils/ | grep -E '^testutils/g[0-9]+_samples\.go$'); do
  git --git-dir="$GIT_DIR_IN" show "HEAD:$f" > "$OUT/$f"
done
git --git-dir="$GIT_DIR_IN" show HEAD:LICENSE.txt > "$OUT/LICENSE.txt"
printf 'repository: https://github.com/securego/gosec\ncommit: %s\nfiles: testutils/g*_samples.go, LICENSE.txt (as at that commit)\n' "$COMMIT" > "$OUT/SOURCE"
echo "gosec fixtures at $COMMIT: $(ls "$OUT/testutils" | wc -l) sample files"
