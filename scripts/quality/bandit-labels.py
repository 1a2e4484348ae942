"""Per-line labels for bandit's examples, from bandit's own functional tests.

Runs every test of bandit's tests/functional/test_functional.py with its own settings (test sets, profiles,
plugin configs, ignore_nosec), and where a test calls check_example(file, expect) records, besides checking the
counts as the test does, every issue bandit reported: test id, line, line range, severity, confidence, CWE.
A file checked more than once keeps the first check that uses bandit's default settings, else its first check.

Usage (from a checkout of PyCQA/bandit, with PyYAML, stevedore and rich importable and bandit itself importable
from the checkout, e.g. PYTHONPATH=. plus an entry_points.txt for the checkout; scripts/quality/bandit-labels.sh
does all of it):  python3 bandit-labels.py > labels.json
"""
import json
import sys
import types
import unittest

# The functional tests subclass testtools.TestCase; unittest's is enough to run them.
sys.modules.setdefault("testtools", types.SimpleNamespace(TestCase=unittest.TestCase))
sys.path.insert(0, ".")

from tests.functional import test_functional as tf  # noqa: E402

records = []
original = tf.FunctionalTests.check_example


def recording_check(self, example_script, expect, ignore_nosec=False):
    original(self, example_script, expect, ignore_nosec=ignore_nosec)
    issues = [
        {
            "test_id": i.test_id,
            "line": i.lineno,
            "line_range": list(i.linerange),
            "severity": i.severity,
            "confidence": i.confidence,
            "cwe": f"CWE-{i.cwe.id}" if i.cwe and i.cwe.id else None,
        }
        for i in self.b_mgr.get_issue_list()
        # The manager keeps the issues of earlier checks in the same test: only this file's.
        if i.fname.replace("\\", "/").endswith("examples/" + example_script)
    ]
    records.append(
        {
            "file": example_script,
            "test": self._testMethodName,
            "ignore_nosec": ignore_nosec,
            "default_settings": getattr(self, "_default_settings", True),
            "expect": expect,
            "issues": sorted(issues, key=lambda x: (x["line"], x["test_id"])),
        }
    )


tf.FunctionalTests.check_example = recording_check

# Tests that change bandit's settings before checking: their checks are not the default settings.
original_with = tf.FunctionalTests.with_test_set


def marking_with(self, ts):
    self._default_settings = False
    return original_with(self, ts)


tf.FunctionalTests.with_test_set = marking_with

suite = unittest.defaultTestLoader.loadTestsFromTestCase(tf.FunctionalTests)
result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)

CHANGES_SETTINGS = {"test_asserts", "test_try_except_pass", "test_try_except_continue", "test_ignore_skip"}
by_file = {}
for r in records:
    default = r["default_settings"] and r["test"] not in CHANGES_SETTINGS and not r["ignore_nosec"]
    r["default_settings"] = default
    kept = by_file.get(r["file"])
    if kept is None or (default and not kept["default_settings"]):
        by_file[r["file"]] = r

json.dump(
    {
        "functional_tests": {"run": result.testsRun, "failures": len(result.failures), "errors": len(result.errors)},
        "files": [by_file[f] for f in sorted(by_file)],
    },
    sys.stdout,
    indent=1,
)
