"""The kit inside pytest: parametrize_with_checks outcomes and the --mistakebound-report table.

Each test runs an inner pytest session with pytester and reads its outcomes.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import mistakebound
import mistakebound.game.play

pytest_plugins = ["pytester"]

LEARNERS = '''
    import math
    from attrs import define
    from mistakebound.game.hypothesis_class import HypothesisClass
    from mistakebound.game.players import Learner

    @define
    class ConstantOne(Learner):
        """Ignores its input; claims log2 |H|."""
        H: HypothesisClass

        def predict_one(self, x):
            return 1

        def learn_one(self, x, y):
            pass

        @classmethod
        def mistake_bound(cls, H):
            return math.log2(H.n_hypotheses)
'''


def test_declared_failures_are_xfail_and_the_rest_pass(pytester):
    pytester.makepyfile(textwrap.dedent(LEARNERS) + textwrap.dedent('''
        from mistakebound.verification.checks import parametrize_with_checks
        from mistakebound.learners import SOA

        @parametrize_with_checks(
            [SOA, ConstantOne],
            expected_failures={ConstantOne: {"check_mistake_bound": "ignores its input"}},
            max_examples=10,
        )
        def test_learner(learner, check):
            check(learner)
    '''))
    result = pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=9, xfailed=1)
    result.stdout.fnmatch_lines([
        "*test_learner?SOA-check_predictions_are_labels? PASSED*",
        "*test_learner?SOA-check_mistake_bound? PASSED*",
        "*test_learner?ConstantOne-check_mistake_bound? XFAIL*",
    ])


def test_a_declared_failure_that_passes_fails_the_run(pytester):
    pytester.makepyfile('''
        from mistakebound.verification.checks import parametrize_with_checks
        from mistakebound.learners import SOA

        @parametrize_with_checks([SOA], expected_failures={SOA: {"check_mistake_bound": "claimed broken"}},
                                 max_examples=5)
        def test_learner(learner, check):
            check(learner)
    ''')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(["*XPASS(strict)*claimed broken*"])


def test_an_undeclared_failure_fails_with_the_counterexample(pytester):
    pytester.makepyfile(textwrap.dedent(LEARNERS) + textwrap.dedent('''
        from mistakebound.verification.checks import parametrize_with_checks

        @parametrize_with_checks([ConstantOne], max_examples=10)
        def test_learner(learner, check):
            check(learner)
    '''))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines([
        "*BoundViolation: ConstantOne made * more than ConstantOne.mistake_bound(H) = 0*",
        "*class matrix (1 hypotheses x 1 instances*",
    ])


GAMES = '''
    from mistakebound import play
    from mistakebound.game import classes
    from mistakebound.adversaries import OppositeLabel, ShatteredTreeWalker
    from mistakebound.learners import SOA, Halving

    def test_games():
        H = classes.thresholds(15)
        for seed in range(3):
            play(Halving(H), OppositeLabel(), H, rounds=20, seed=seed)
        play(SOA(H), ShatteredTreeWalker(), H, rounds=20, seed=0)
'''


def test_the_report_prints_the_learner_by_adversary_table(pytester):
    pytester.makepyfile(GAMES)
    original = mistakebound.game.play.play
    result = pytester.runpytest("--mistakebound-report", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        "*= mistakebound report =*",
        "learner*adversary*games*max mistakes*max mistakes/bound*violations",
        "Halving*OppositeLabel*3*1*0.25*0",
        "SOA*ShatteredTreeWalker*1*4*1*0",
    ])
    # the inner session put play back where it found it
    assert mistakebound.game.play.play is original and mistakebound.play is original


def test_without_the_option_there_is_no_report(pytester):
    pytester.makepyfile(GAMES)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "mistakebound report" not in result.stdout.str()


def test_the_report_counts_violations(pytester):
    pytester.makepyfile(textwrap.dedent(LEARNERS) + textwrap.dedent('''
        from mistakebound import HypothesisClass, play
        from mistakebound.adversaries import ObliviousCoin

        def test_constant_learner():
            H = HypothesisClass.from_matrix([[0]])  # log2 |H| = 0; every round is a mistake
            play(ConstantOne(H), ObliviousCoin(), H, rounds=5, seed=0)
    '''))
    result = pytester.runpytest("--mistakebound-report", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["ConstantOne*ObliviousCoin*1*5*inf*1", "1 game(s) exceeded*"])


#: Run first in a subprocess: any import of hypothesis fails, as if the test extra were not installed.
BLOCK_HYPOTHESIS = textwrap.dedent('''
    import importlib.abc
    import sys

    class NoHypothesis(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "hypothesis" or name.startswith("hypothesis."):
                raise ImportError(f"No module named {name!r} (blocked by the test)")
            return None

    sys.meta_path.insert(0, NoHypothesis())
''')


def test_the_plugin_works_without_hypothesis(pytester):
    pytester.makepyfile(GAMES)
    code = BLOCK_HYPOTHESIS + textwrap.dedent('''
        import pytest
        sys.exit(pytest.main(["--mistakebound-report", "-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-q"]))
    ''')
    done = subprocess.run([sys.executable, "-c", code], cwd=pytester.path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "mistakebound report" in done.stdout and "Halving" in done.stdout
