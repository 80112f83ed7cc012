"""A diff or an edit of hostile files costs work that grows with the files, never with their square,
stops at its checkpoints, refuses past its budget before the work, and lists a bounded answer.

Nothing here measures time: the work is counted (steps of :mod:`robotrules._budget`, calls of the
token reader, checkpoints run), which is the same on every machine.
"""

from __future__ import annotations

import pytest

from robotrules._budget import EVERY, Budget
from robotrules.core.agents import product_token
from robotrules.diff import compare, diff
from robotrules.edit import EditRefused, edit
from robotrules.errors import RobotsError, TooMuchWork


def _names(count: int) -> list[str]:
    """``count`` distinct product tokens (letters only, G3: digits would end the token)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return [f"{letters[n % 26]}{letters[n // 26 % 26]}{letters[n // 676 % 26]}bot" for n in range(count)]


def one_group(agents: int, rules: int) -> str:
    """One group naming ``agents`` crawlers over ``rules`` distinct disallow rules (G1, G4)."""
    return ("".join(f"User-agent: {name}\n" for name in _names(agents))
            + "".join(f"Disallow: /{_names(rules)[n][:2]}/{n}\n" for n in range(rules)))


def groups_of_their_own(agents: int) -> str:
    """``agents`` groups, each naming one crawler with one rule."""
    return "".join(f"User-agent: {name}\nDisallow: /{n}\n\n" for n, name in enumerate(_names(agents)))


@pytest.mark.parametrize("agents", [1_000, 4_000])
def test_the_user_agent_lines_of_one_group_are_read_once_each(monkeypatch: pytest.MonkeyPatch, agents: int) -> None:
    """G3: naming the crawlers as the files write them reads each user-agent value once: a group of
    thousands of values costs thousands of reads, not millions (it was values x tokens)."""
    calls = 0
    real = product_token

    def counting(value: str) -> str:
        nonlocal calls
        calls += 1
        return real(value)

    monkeypatch.setattr("robotrules.diff._crawlers.product_token", counting)  # where the diff reads user-agent values
    diff(one_group(agents, 1), one_group(agents, 2))
    assert calls == 2 * agents


def test_steps_grow_with_the_files_not_with_their_square() -> None:
    """G4: crawlers that choose the same groups are compared once: four times the crawlers of one
    group cost about four times the steps, not sixteen."""
    spent = []
    for agents in (500, 2_000):
        work = Budget()
        compare(one_group(agents, 50), one_group(agents, 60), work)
        spent.append(work.spent)
    assert spent[1] < 5 * spent[0]


def test_many_crawlers_times_many_rules_are_refused_before_they_are_compared() -> None:
    """A diff whose crawlers each choose other groups over thousands of rules is refused with the
    work it would take, before the rules are compared: the steps spent are a fraction of the budget."""
    work = Budget(2_000_000)
    with pytest.raises(TooMuchWork) as refused:
        compare(groups_of_their_own(2_000), one_group(2_000, 2_000), work)
    assert work.spent < work.limit // 10  # type: ignore[operator]
    assert "2,001 crawlers" in str(refused.value)
    assert isinstance(refused.value, RobotsError) and isinstance(refused.value, ValueError)


def test_checking_every_rule_against_thousands_of_rules_alike_is_refused_before_the_checks() -> None:
    """R6: a check tries the rules that share the path's start: thousands of URLs against thousands
    of rules that all start alike would cost millions of steps, and are refused before they run."""
    alike = "User-agent: *\n" + "".join(f"Disallow: /p{n}\n" for n in range(5_000))
    work = Budget(5_000_000)
    with pytest.raises(TooMuchWork):
        compare("", alike, work)
    assert work.spent < 1_000_000


def test_the_checkpoint_runs_inside_the_work_every_few_thousand_steps() -> None:
    """A diff that runs long calls its checkpoint as it goes, so a service can stop it at once when
    its client leaves; whatever the checkpoint raises ends the diff."""
    calls = 0

    def checkpoint() -> None:
        nonlocal calls
        calls += 1

    work = Budget(checkpoint=checkpoint)
    compare("", "User-agent: *\n" + "".join(f"Disallow: /p{n}\n" for n in range(1_000)), work)
    # one checkpoint per EVERY steps, or per piece of work (one URL's check) when a piece is larger
    assert calls >= work.spent // (2 * EVERY) > 100

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        diff("", "User-agent: *\n" + "".join(f"Disallow: /p{n}\n" for n in range(1_000)), checkpoint=stop)


def test_most_lists_the_first_changes_and_counts_the_rest() -> None:
    """An answer lists at most ``most`` rule and verdict changes and counts the others: 1,000 crawlers
    of one group that gains 100 rules are 100,000 changes, of which 50 are listed."""
    found = diff("", one_group(1_000, 100), most=50)
    assert len(found.rules) == 50 and found.rules_omitted == 1_000 * 100 - 50
    assert len(found.verdicts) == 50 and found.verdicts_omitted == 1_000 * 100 - 50
    assert found.changed
    data = found.to_dict()
    assert data["rules_omitted"] == found.rules_omitted and data["verdicts_omitted"] == found.verdicts_omitted
    everything = diff("", one_group(20, 10))
    assert (len(everything.rules), everything.rules_omitted) == (200, 0)
    assert diff("", one_group(20, 10), most=5).rules == everything.rules[:5]


def test_an_edit_of_a_group_naming_ten_thousand_crawlers_stays_within_a_modest_budget() -> None:
    """An edit proves itself crawler by crawler; crawlers that choose the same groups are proved
    once, so a group of 10,000 user-agent lines is edited within a few million steps."""
    body = one_group(10_000, 1).encode()
    result = edit(body, block=["GPTBot"], budget=5_000_000, most=100)
    assert result.changed and result.blocked == ["GPTBot"]
    assert len(result.diff.rules) <= 100 and len(result.diff.verdicts) <= 100
    shared = edit(body, block=["aaabot"], budget=5_000_000, most=100)
    note = next(n for n in shared.notes if "shared the group" in n)
    assert "9,989 more" in note and len(note) < 400


def test_an_edit_past_its_budget_is_refused_and_changes_nothing() -> None:
    """An edit whose proof would take more than its budget raises TooMuchWork, a ValueError the
    caller can tell apart from a refusal of the edit itself."""
    with pytest.raises(TooMuchWork) as refused:
        edit(one_group(3_000, 3_000).encode(), block=["aaabot"], budget=100_000)
    assert not isinstance(refused.value, EditRefused)


def test_a_legacy_edit_says_it_reaches_every_name_that_contains_the_token() -> None:
    """L2: in the 1994 standard's reading a group for GPTBot also applies to MyGPTBotClone: the
    edit says so."""
    result = edit(b"User-agent: *\nDisallow: /private\n", block=["GPTBot"], mode="legacy1994")
    assert any("contains 'GPTBot'" in note for note in result.notes)
    assert not any("contains" in note for note in edit(b"User-agent: *\nDisallow: /p\n", block=["GPTBot"]).notes)
