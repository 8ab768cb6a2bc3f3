"""The kit inside pytest: parametrize_with_checks outcomes and the --mistakebound-report table.

Each test runs an inner pytest session with pytester and reads its outcomes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import mistakebound
import mistakebound.game.observers
import mistakebound.game.play

pytest_plugins = ["pytester"]

LEARNERS = '''
    import math
    from attrs import define
    from mistakebound.game.hypothesis_class import HypothesisClass
    from mistakebound.game.players import Learner
    from mistakebound.verification.claims import Bound

    @define
    class ConstantOne(Learner):
        """Ignores its input; claims log2 |H|."""
        H: HypothesisClass

        def predict_one(self, x):
            return 1

        def learn_one(self, x, y):
            pass

        def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
            return Bound(math.log2(setting.n_hypotheses), source="log2 |H|") if realizable else None
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
    result = pytester.runpytest("-v", "-p", "no:cacheprovider", "-p", "no:randomly")  # the lines in order
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
        "*BoundViolation: ConstantOne made * more than its claimed bound 0 (log2 |H|)*",
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
    result.assert_outcomes(passed=1)  # a tally, not a verdict: the test itself passes
    result.stdout.fnmatch_lines(["ConstantOne*ObliviousCoin*1*5*inf*1", "1 game(s) broke the learner's claimed bound*"])


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


def test_the_report_watches_through_an_observer_and_leaves_play_alone(pytester):
    # play bound to other names before the session starts (a module-level alias, a default
    # argument) is still the one function: the recorder sees the games played through them
    pytester.makepyfile(textwrap.dedent('''
        import mistakebound
        import mistakebound.game.play
        from mistakebound import play as early_play
        from mistakebound.game import classes
        from mistakebound.adversaries import OppositeLabel
        from mistakebound.learners import Halving
        from mistakebound.verification.recorder import GameRecorder

        def test_play_is_never_swapped(run=mistakebound.game.play.play):
            assert mistakebound.play is mistakebound.game.play.play is early_play is run
            installed = [o for o in mistakebound.game.observers._OBSERVERS if isinstance(o, GameRecorder)]
            assert len(installed) == 1 and installed[0].active
            H = classes.thresholds(7)
            early_play(Halving(H), OppositeLabel(), H, rounds=10, seed=0)
            run(Halving(H), OppositeLabel(), H, rounds=10, seed=1)
    '''))
    result = pytester.runpytest("--mistakebound-report", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["Halving*OppositeLabel*2*1*0.333*0"])
    # the session's recorder is uninstalled at its end
    assert mistakebound.game.observers._OBSERVERS == ()


def test_without_the_option_no_observer_is_installed(pytester):
    pytester.makepyfile('''
        import mistakebound.game.play

        def test_nothing_installed():
            assert mistakebound.game.observers._OBSERVERS == ()
    ''')
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_the_report_gives_the_claim_and_verdict_of_stated_bound_and_judge(pytester):
    # WeightedMajority on expert advice, not realizable: Theorem 21.11's regret bound, which
    # the report once showed as no bound
    pytester.makepyfile(textwrap.dedent('''
        import json
        from mistakebound import play
        from mistakebound.game.registry import build, load_setting
        from mistakebound.verification.claims import judge, measured, stated_bound

        def test_weighted_majority():
            S = load_setting("experts:4")
            out = []
            for seed in range(3):
                learner = build("learner", "WeightedMajority", S, rounds=200)
                adversary = build("adversary", "RandomExpertLosses", S, rounds=200)
                T = play(learner, adversary, S, rounds=200, seed=seed, realizable=False)
                claim = stated_bound(learner, S, rounds=200, realizable=False, transcript=T)
                v = judge(measured(T, claim.measure), claim)
                out.append([claim.value, claim.measure, v.status, v.ratio, measured(T, claim.measure)])
            with open("expected.json", "w") as f:
                json.dump(out, f)
    '''))
    result = pytester.runpytest("--mistakebound-report", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    import json

    expected = json.loads((pytester.path / "expected.json").read_text())
    assert all(value is not None and measure == "regret" and status == "ok" for value, measure, status, *_ in expected)
    ratio = max(e[3] for e in expected)
    worst = max(e[4] for e in expected)
    result.stdout.fnmatch_lines([f"WeightedMajority*RandomExpertLosses*3*{worst:.3g}*{ratio:.3g}*0"])


def test_a_claim_that_raises_is_reported_and_never_fails_the_test(pytester):
    pytester.makepyfile(textwrap.dedent(LEARNERS) + textwrap.dedent('''
        from mistakebound import play
        from mistakebound.game import classes
        from mistakebound.adversaries import OppositeLabel

        class Raising(ConstantOne):
            def bound(self, setting, *, rounds=None, realizable=True, transcript=None):
                raise KeyError("no claim")

        def test_games():
            H = classes.thresholds(3)
            play(Raising(H), OppositeLabel(), H, rounds=5, seed=0)
    '''))
    result = pytester.runpytest("--mistakebound-report", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["Raising*OppositeLabel*1*1*-*0",
                                 "1 game(s): the learner's claim could not be read*Raising.bound*KeyError*"])


# ------------------------------------------------------------------ start-up cost, hypothesis's files (issue 25)
#: Packages the plugin's hooks must not import at pytest's start-up: they cost a quarter of a
#: second in every pytest run of the environment, projects that never use mistakebound included.
HEAVY = ("numpy", "mistakebound", "attrs", "networkx", "hypothesis", "matplotlib")


def test_the_pytest11_entry_point_imports_pytest_alone():
    code = textwrap.dedent('''
        import importlib.metadata, sys
        (ep,) = [e for e in importlib.metadata.entry_points(group="pytest11") if e.name == "mistakebound"]
        plugin = ep.load()
        heavy = sorted(name for name in sys.modules if name.split(".")[0] in %r)
        print(plugin.__name__, heavy, callable(plugin.pytest_addoption))
    ''' % (HEAVY,))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["_mistakebound_pytestplugin", "[]", "True"]


def test_a_session_without_the_option_imports_nothing_of_mistakebound(pytester):
    pytester.makepyfile('''
        import sys

        def test_nothing_loaded():
            assert not [name for name in sys.modules if name.split(".")[0] in ("numpy", "mistakebound")]
    ''')
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly").assert_outcomes(passed=1)


def test_the_check_kit_keeps_hypothesis_files_at_the_rootdir_not_in_the_working_directory(tmp_path):
    from tests.test_checks import MINE

    # pytest started from a sub-folder of the project (where hypothesis, imported there, would write); the
    # learner in a module of the project, whose constants hypothesis caches
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    (project / "mine.py").write_text(MINE)
    (project / "tests" / "test_kit.py").write_text(textwrap.dedent('''
        from mine import my_learner
        from mistakebound.verification.checks import check_learner

        def test_mine():
            assert check_learner(my_learner, max_examples=10).violations == 0
    '''))
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"} | {"PYTHONPATH": str(project)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           f"--rootdir={project}", "test_kit.py"],
                          cwd=project / "tests", capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (project / "tests" / ".hypothesis").exists()
    assert (project / ".hypothesis").is_dir()
